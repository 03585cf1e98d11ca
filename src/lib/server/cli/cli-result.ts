/** What a CLI command answers: an exit code and text for a person. */
export interface CliResult {
	code: number;
	output: string;
}
