// Which face a recognition node may enrol. Passive liveness alone decides nothing (a photo posted as
// frames scores live), so a new user is enrolled only with a face this session proved live with its
// active checks (a liveness_detection that ended livenessDetected, a face_scan with requireLiveness
// that passed: challenge, continuous turn, light, injection signals) — the same person by the 1:1
// threshold. Whichever comes second enrols: a recognition after the liveness node enrols at once; a
// recognition first (the legacy e-mail module puts it there) leaves its template pending, and the
// liveness node that later passes on the same face enrols it.
import { MATCH_THRESHOLD } from '#lib/domain/face/thresholds.ts';
import { cosineSimilarity } from '#lib/face/embedding.ts';
import { decodeTemplate } from '../../biometrics/template-protection.ts';

/** What a face node keeps for enrolment in its state (base64 of encodeTemplate, protected templates). */
export interface EnrolmentState {
	/** The face a node proved live with its active checks. */
	liveTemplate?: string;
	/** A recognition node's new user, waiting for a live face that matches it. */
	pendingEnrolment?: string;
}

export interface LiveMatch {
	nodeId: string;
	similarity: number;
}

const decode = (base64: string): Float32Array | null => {
	try {
		return decodeTemplate(new Uint8Array(Buffer.from(base64, 'base64')));
	} catch {
		return null;
	}
};

/** Templates are protected by the same account rotation, which keeps cosine similarity. */
function similarity(a: Float32Array, base64: string): number | null {
	const b = decode(base64);
	return b && b.length === a.length ? cosineSimilarity(a, b) : null;
}

/** The live face of another node most like `probe`, or null when the session proved none live. */
export function closestLiveFace(states: Record<string, EnrolmentState>, probe: Float32Array): LiveMatch | null {
	let best: LiveMatch | null = null;
	for (const [nodeId, state] of Object.entries(states)) {
		if (!state.liveTemplate) continue;
		const s = similarity(probe, state.liveTemplate);
		if (s !== null && (!best || s > best.similarity)) best = { nodeId, similarity: s };
	}
	return best;
}

/** Whether a live face is the same person as the recognition probe. */
export const sameLivePerson = (match: LiveMatch | null): match is LiveMatch => match !== null && match.similarity >= MATCH_THRESHOLD;

/** The recognition nodes whose pending new user is the person of `live`, with their template. */
export function pendingFor(states: Record<string, EnrolmentState>, live: Float32Array): (LiveMatch & { template: Float32Array })[] {
	const out: (LiveMatch & { template: Float32Array })[] = [];
	for (const [nodeId, state] of Object.entries(states)) {
		if (!state.pendingEnrolment) continue;
		const template = decode(state.pendingEnrolment);
		if (!template || template.length !== live.length) continue;
		const s = cosineSimilarity(live, template);
		if (s >= MATCH_THRESHOLD) out.push({ nodeId, similarity: s, template });
	}
	return out;
}
