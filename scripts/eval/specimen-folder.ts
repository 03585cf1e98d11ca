// Puts together a folder of document photos from public repositories, for documents.ts --dir: each
// file of a labels file (specimens-unseen.json: the MRZ each photo prints, the repository, path and
// commit it comes from) is taken from a local copy of its repository at that commit, and the labels
// are written beside them as expected.json. The photos are never copied into this project: their
// licences do not all allow it, and they are the documents the reader has not been tuned on.
//
//   npx tsx scripts/eval/specimen-folder.ts --out DIR --repo Arg0s1080/mrz=PATH [--repo …] [--labels FILE]
//   npx tsx scripts/eval/documents.ts --dir DIR --damages none
//
// PATH is a clone or a bare git directory of the repository.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliArg, cliArgs } from './face-photos.ts';

interface Label {
	mrz: string[];
	repo: string;
	path: string;
	commit: string;
	truth: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const labelsFile = cliArg('--labels') ?? join(here, 'specimens-unseen.json');
const out = cliArg('--out');
if (!out) throw new Error('--out DIR is required');
const copies = new Map(cliArgs('repo').map((r) => r.split('=') as [string, string]));
const labels = JSON.parse(readFileSync(labelsFile, 'utf8')) as Record<string, Label>;
const kept: Record<string, Label> = {};
const missing = new Set<string>();
for (const [file, label] of Object.entries(labels)) {
	const copy = copies.get(label.repo);
	if (!copy) {
		missing.add(label.repo);
		continue;
	}
	// A bare git directory has no work tree; `git --git-dir` reads either.
	const gitDir = existsSync(join(copy, '.git')) ? join(copy, '.git') : copy;
	const bytes = execFileSync('git', [`--git-dir=${gitDir}`, 'show', `${label.commit}:${label.path}`], { maxBuffer: 64 << 20 });
	mkdirSync(dirname(join(out, file)), { recursive: true });
	writeFileSync(join(out, file), bytes);
	kept[file] = label;
}
writeFileSync(join(out, 'expected.json'), JSON.stringify(kept, null, '\t') + '\n');
console.log(`${Object.keys(kept).length} documents in ${out}${missing.size ? `; no --repo for ${[...missing].join(', ')}` : ''}`);
