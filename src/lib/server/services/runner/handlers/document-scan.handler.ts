// The document_scan node's server side. The page finds the document, captures a sharp frame and
// uploads it; server/documents/document-evidence.ts reads it; this handler judges that reading,
// stores what was derived (extractedData, the document photo, the portrait as the session's face
// reference) and ends the node. The time limit is the server's: a page that reports a timeout early is
// refused, and an upload that arrives after the limit ends the node with `scanTimeout`.
import { createHash } from 'node:crypto';
import { ApiError } from '#lib/domain/errors.ts';
import { DOCUMENT_PORTRAIT_FIELD, DOCUMENT_UPLOAD_GRACE_S, documentSettingsOf, sidesFor } from '#lib/domain/nodes/document-scan.contract.ts';
import type { DocumentRetryReason } from '#lib/domain/page/document-evidence.schema.ts';
import { MAX_DOCUMENT_UPLOAD_BYTES, parseDocumentUpload, readDocumentUpload, type DocumentEvidence } from '../../../documents/document-evidence.ts';
import { judgeDocument, mayBeConfirmed } from '../../../documents/document-verdict.ts';
import { evidenceIntake, type ActionResult, type NodeContext, type NodeFinish, type NodeHandler } from '../node-handler.ts';

type Ctx = NodeContext<'document_scan'>;

/** A reading's MRZ as a digest, to tell whether two captures read the same thing. */
function mrzDigest(reading: DocumentEvidence['reading']): string | null {
	return reading.mrz ? createHash('sha256').update(reading.mrz.lines.join('\n')).digest('base64url') : null;
}

/** Each uploaded photo as a digest of its bytes (a camera never takes the same bytes twice). */
function photoDigests(uploads: DocumentEvidence['uploads']): string[] {
	return uploads.map((u) => createHash('sha256').update(u.bytes).digest('base64url'));
}

interface DocumentNodeState {
	enteredAt: number;
	failedTries: number;
	history: { reason: DocumentRetryReason; at: number; documentType: string | null; problems: string[] }[];
	/** Digests of MRZ readings refused as uncertain (not the text: node state is no place for it). */
	uncertainReads?: string[];
	/** Digests of the photos of every refused try: a photo sent again is no second look. */
	photos?: string[];
}

const STATE_KEY = 'documentNodes';

function stateOf(ctx: Ctx): DocumentNodeState {
	const all = (ctx.data[STATE_KEY] ?? {}) as Record<string, DocumentNodeState>;
	// A session that entered the node before this state existed starts its clock now.
	return all[ctx.node.id] ?? { enteredAt: ctx.now, failedTries: 0, history: [] };
}

function setState(ctx: Ctx, state: DocumentNodeState): void {
	ctx.data[STATE_KEY] = { ...((ctx.data[STATE_KEY] as Record<string, DocumentNodeState>) ?? {}), [ctx.node.id]: state };
}

const deadlineOf = (ctx: Ctx, state: DocumentNodeState) => state.enteredAt + documentSettingsOf(ctx.node).timeoutSeconds * 1000;

const round = (v: number | null | undefined, digits = 1) => (v === null || v === undefined || !Number.isFinite(v) ? null : Number(v.toFixed(digits)));

/** Biometric consent refused on the permissions page: the portrait is not kept as a face reference. */
const portraitRefused = (ctx: Ctx) => ctx.session.consent?.biometric === false;

/** What the node report keeps of a reading (never the images; the fields are in extractedData). */
function readingDetails(evidence: DocumentEvidence): Record<string, unknown> {
	const r = evidence.reading;
	const t = r.timings;
	return {
		status: r.status,
		source: r.source,
		documentType: r.documentType,
		...(r.mrz ? { mrzFormat: r.mrz.format, checkDigitsValid: r.mrz.checkDigitsValid, ...(r.mrz.errors.length ? { mrzErrors: r.mrz.errors } : {}) } : {}),
		// How sure the recogniser was of each MRZ field (0–1); a field below the reader's bar is LOW_CONFIDENCE.
		...(r.mrz?.fieldConfidence ? { fieldConfidence: Object.fromEntries(Object.entries(r.mrz.fieldConfidence).map(([f, p]) => [f, round(p, 3)])) } : {}),
		// The printed page against the MRZ: per field agree / unsure / disagree / notChecked, the fields
		// that disagree (MRZ_VIZ_MISMATCH), those the print vouched for, and names the MRZ could not
		// settle that were spelled as printed (printed-names.ts).
		...(r.viz ? { vizCheck: { fields: r.viz.fields, mismatched: r.viz.mismatched, confirmed: r.viz.confirmed, ...(r.viz.fromPrint?.length ? { fromPrint: r.viz.fromPrint } : {}) } } : {}),
		...(r.barcode ? { barcode: { format: r.barcode.format, aamva: r.barcode.aamva !== null } } : {}),
		problems: r.problems,
		...(r.decision && !r.decision.accepted ? { refused: { reason: r.decision.reason, documentType: r.decision.documentType, allowed: r.decision.allowed } } : {}),
		sides: r.sides.map((s, i) => ({
			side: evidence.uploads[i]?.side ?? (i === 0 ? 'front' : 'back'),
			width: s.width,
			height: s.height,
			edgesFound: s.quad !== null,
			mrzFound: s.mrzFound,
			// The MRZ lines ran to the photo's edge: part of them may have been outside it.
			mrzAtEdge: s.mrzAtEdge,
			// Per MRZ line, glyphs the recogniser saw nothing at (a thumb, glare): over 2, not confirmed by a retake.
			mrzUnseen: s.mrzUnseen,
			barcodes: s.barcodes,
			deskewAngle: round(s.deskewAngle),
			...(s.quality ? { sharpness: round(s.quality.sharpness), glare: round(s.quality.glare, 4), blurry: s.quality.blurry, glary: s.quality.glary } : {})
		})),
		portraitFound: r.portrait !== null,
		timings: Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)])),
		serverMs: evidence.serverMs,
		...(Object.keys(evidence.claim).length ? { claim: evidence.claim } : {})
	};
}

/** Stores what a successful read derived: extractedData, document photo(s) (+ event), the portrait. */
async function persist(ctx: Ctx, evidence: DocumentEvidence): Promise<Record<string, unknown>> {
	const { sink } = ctx.deps.documents;
	const base = { sessionId: ctx.session.id, nodeId: ctx.node.id };
	const r = evidence.reading;
	ctx.data.extractedData = { ...((ctx.data.extractedData as Record<string, string>) ?? {}), ...r.fields };
	const documentPhotoIds: string[] = [];
	for (const [i, side] of r.sides.entries()) {
		const bytes = side.documentImage ?? evidence.uploads[i]?.bytes;
		if (bytes) documentPhotoIds.push((await sink.saveDocumentPhoto(ctx.repos, { ...base, bytes })).id);
	}
	const out: Record<string, unknown> = { documentPhotoIds };
	if (r.portrait?.jpeg) {
		if (portraitRefused(ctx)) out.portrait = { saved: false, because: 'noConsent' };
		else {
			const portrait = await sink.savePortrait(ctx.repos, { ...base, bytes: r.portrait.jpeg });
			ctx.data[DOCUMENT_PORTRAIT_FIELD] = { type: 'image', mediaId: portrait.id };
			out.portrait = { saved: true, field: DOCUMENT_PORTRAIT_FIELD, mediaId: portrait.id, side: r.portrait.side };
		}
	}
	return out;
}

export const documentScanHandler: NodeHandler<'document_scan'> = {
	async enter(ctx) {
		setState(ctx, { enteredAt: ctx.now, failedTries: 0, history: [] });
	},
	view(ctx) {
		const s = documentSettingsOf(ctx.node);
		const state = stateOf(ctx);
		return {
			available: true,
			settings: {
				scanningMode: s.scanningMode,
				allowedDocumentTypes: s.allowedDocumentTypes,
				showTorchButton: s.showTorchButton,
				showCameraSwitch: s.showCameraSwitch,
				timeoutSeconds: s.timeoutSeconds
			},
			sides: sidesFor(s.scanningMode),
			// The page counts down from the server's clock (a reload resumes the same countdown).
			timeLeftMs: Math.max(0, deadlineOf(ctx, state) - ctx.now),
			triesLeft: Math.max(0, s.maxTries - state.failedTries),
			...(state.history.length ? { lastRefusal: state.history[state.history.length - 1].reason } : {}),
			cancellable: true
		};
	},
	evidence: evidenceIntake({
		maxBodyBytes: MAX_DOCUMENT_UPLOAD_BYTES,
		parse: parseDocumentUpload,
		analyse: ({ deps, session, node, receivedAt }, upload) => readDocumentUpload(deps.documents.read, session.id, node, upload, receivedAt),
		async decide(ctx, evidence): Promise<ActionResult> {
			const s = documentSettingsOf(ctx.node);
			const state = stateOf(ctx);
			const tries = state.failedTries + 1;
			const details = readingDetails(evidence);
			const history = state.history.length ? { previousTries: state.history } : {};
			if (evidence.receivedAt > deadlineOf(ctx, state) + DOCUMENT_UPLOAD_GRACE_S * 1000) {
				return { finish: { outcome: 'scanTimeout', details: { reason: 'timeout', lateByMs: evidence.receivedAt - deadlineOf(ctx, state), tries, ...details, ...history } } };
			}
			const digest = mrzDigest(evidence.reading);
			const photos = photoDigests(evidence.uploads);
			// A second capture that reads the same confirms only as a second look: a photo of a refused try
			// sent again (a replay, a client that resends) is the same look, and reads alike by construction.
			const seenBefore = photos.some((p) => (state.photos ?? []).includes(p));
			const confirmed = digest !== null && (state.uncertainReads ?? []).includes(digest) && !seenBefore;
			const judgement = judgeDocument(evidence.reading, { failed: state.failedTries, max: s.maxTries }, { confirmed });
			if (judgement.kind === 'retry') {
				const r = evidence.reading;
				const uncertain = digest !== null && mayBeConfirmed(r) ? [...(state.uncertainReads ?? []), digest] : state.uncertainReads;
				setState(ctx, {
					...state,
					failedTries: tries,
					history: [...state.history, { reason: judgement.reason, at: ctx.now, documentType: r.documentType, problems: r.problems }],
					...(uncertain ? { uncertainReads: uncertain } : {}),
					photos: [...(state.photos ?? []), ...photos]
				});
				return {
					notice: {
						code: 'document.retry',
						params: { reason: judgement.reason, triesLeft: s.maxTries - tries, ...(r.documentType ? { documentType: r.documentType } : {}), allowed: s.allowedDocumentTypes.join(',') }
					}
				};
			}
			if (judgement.kind === 'finish') {
				return { finish: { outcome: judgement.outcome, details: { reason: judgement.reason, tries, ...details, ...history } } };
			}
			const persisted = await persist(ctx, evidence);
			const finish: NodeFinish = { outcome: 'scanSuccess', details: { tries, ...details, ...(confirmed ? { confirmedByRetake: true } : {}), ...persisted, ...history } };
			return { finish };
		}
	}),
	actions: {
		async timeout(ctx): Promise<ActionResult> {
			const state = stateOf(ctx);
			const left = deadlineOf(ctx, state) - ctx.now;
			// Two seconds of slack for the page's timer; earlier than that the page is wrong (or lying).
			if (left > 2000) {
				throw new ApiError('validation_error', `This document scan has ${Math.ceil(left / 1000)} s left before its time limit`, { code: 'outcome_not_allowed', status: 400 });
			}
			return { finish: { outcome: 'scanTimeout', details: { reason: 'timeout', tries: state.failedTries, ...(state.history.length ? { previousTries: state.history } : {}) } } };
		},
		async cancel(ctx): Promise<ActionResult> {
			const state = stateOf(ctx);
			return { finish: { outcome: 'userCancelled', details: { reason: 'cancelled', tries: state.failedTries, ...(state.history.length ? { previousTries: state.history } : {}) } } };
		}
	}
};
