import { isSupportedLang } from '#lib/domain/langs.ts';
import { isNodeType } from '#lib/domain/flow/node-types.ts';
import { isVerified, livenessDetected } from '#lib/domain/session/report-rules.ts';
import type { Session } from '#lib/domain/session/session.model.ts';
import type { NodeReport, SessionReport } from '#lib/domain/session/session.schema.ts';
import type { UnitOfWork } from '../repositories/index.ts';
import type { MediaService } from './media.service.ts';
import { toPhrase } from './runner/runner.service.ts';

/**
 * Assembles the SessionReport of `GET /sessions/{id}` from what the runner and the post-session
 * jobs stored. Nothing is computed here that a stored fact does not support: `aiAnalysis` and
 * `videoAIAnalysis` appear only once an analysis stored them; `livenessDetected` only when a
 * liveness verdict exists. Node reports appear as each node finishes (no post-session delay).
 * Media links are signed at read time, valid 15 minutes.
 */
export class ReportService {
	constructor(private readonly deps: { uow: UnitOfWork; media: MediaService; now: () => number }) {}

	build = async (row: Session): Promise<SessionReport | undefined> => {
		if (row.status === 'created') return undefined;
		const repos = this.deps.uow.repos;
		const [phrases, nodeRows, mediaRows, analyses] = await Promise.all([
			repos.transcript.list(row.id),
			repos.nodeReports.list(row.id),
			repos.media.listLive(row.id, ['screenshot', 'user_video']),
			repos.postSession.analyses(row.id)
		]);
		const nodeReports: NodeReport[] = nodeRows
			.filter((n) => isNodeType(n.type))
			.map((n) => ({
				nodeId: n.nodeId,
				type: n.type as NodeReport['type'],
				outcome: n.outcome,
				...(n.targetNodeId ? { targetNodeId: n.targetNodeId } : {}),
				createdAt: n.createdAt,
				...(n.details && Object.keys(n.details).length ? { details: n.details } : {})
			}));
		const report: SessionReport = { transcript: phrases.map(toPhrase), nodeReports };
		if (isSupportedLang(row.lang)) report.lang = row.lang;
		const extracted = stringMap(row.data.extractedData);
		if (extracted) report.extractedData = extracted;
		const liveness = livenessDetected(nodeRows);
		if (liveness !== undefined) report.livenessDetected = liveness;
		const verified = isVerified(row.status, nodeRows);
		if (verified !== undefined) report.isVerified = verified;
		if (row.location) report.location = row.location;
		if (row.device) report.device = row.device;
		const now = this.deps.now();
		report.screenshots = mediaRows.filter((m) => m.kind === 'screenshot').map((m) => this.deps.media.signedUrl(m.id, now).url);
		const video = mediaRows.find((m) => m.kind === 'user_video');
		report.videos = video ? { userVideoUrl: this.deps.media.signedUrl(video.id, now).url } : {};
		if (analyses.video) report.videoAIAnalysis = analyses.video;
		if (analyses.screenshot) report.aiAnalysis = analyses.screenshot;
		return report;
	};
}

/** extractedData is a map of strings: other scalars are written as text, objects left out. */
function stringMap(value: unknown): Record<string, string> | undefined {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(value)) {
		if (typeof v === 'string') out[k] = v;
		else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
	}
	return out;
}
