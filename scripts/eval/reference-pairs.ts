// What the reference evaluations (face-damage.ts, document-portraits.ts) share: the clean photos'
// embeddings and face boxes everything is compared with, and the tally of one damaged reference
// against every other clean photo at the shipped threshold, as compareWithReference and the
// verdict (face-verdict.ts) would call each pair.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { MATCH_THRESHOLD } from '../../src/lib/domain/face/thresholds.ts';
import { cosineSimilarity } from '../../src/lib/face/embedding.ts';
import type { FaceEngine } from '../../src/lib/server/biometrics/face-engine.ts';
import { decodeImage } from '../../src/lib/server/biometrics/image-decode.ts';
import type { ReferenceDoubts } from '../../src/lib/server/services/faces/face-reference.ts';
import type { FacePhoto } from './face-photos.ts';

/** A clean photo's face box and the height of its eyes and mouth, in the pixels of the photo turned upright by its EXIF orientation. */
export type FaceBox = { x: number; y: number; width: number; height: number; eyesY: number; mouthY: number };

/**
 * Each photo analysed as a reference, undamaged: its embedding, and its face box where the photo was
 * read as stored (a crop around the face needs it; a photo read another way up has none).
 */
export async function cleanReferences(engine: FaceEngine, photos: readonly FacePhoto[]): Promise<{ embeddings: Map<string, Float32Array>; boxes: Map<string, FaceBox> }> {
	const embeddings = new Map<string, Float32Array>();
	const boxes = new Map<string, FaceBox>();
	for (const p of photos) {
		const bytes = readFileSync(p.file);
		const found = await engine.analyseReference(new Uint8Array(bytes));
		if (!found?.face.embedding) continue;
		embeddings.set(p.file, found.face.embedding);
		// The analysis saw the photo scaled down to at most MAX_DECODE_SIDE: its box back in the photo's pixels.
		const { width = 1 } = await sharp(await sharp(bytes).rotate().toBuffer()).metadata();
		const scale = width / (await decodeImage(new Uint8Array(bytes))).width;
		const b = found.face.box;
		const [leftEye, rightEye, , mouthLeft, mouthRight] = found.face.landmarks5;
		if (found.look === 'asIs' || found.look === 'levelled')
			boxes.set(p.file, { x: b.x * scale, y: b.y * scale, width: b.width * scale, height: b.height * scale, eyesY: ((leftEye.y + rightEye.y) / 2) * scale, mouthY: ((mouthLeft.y + mouthRight.y) / 2) * scale });
	}
	return { embeddings, boxes };
}

/** Pairs counted for one table row. */
export interface PairTally {
	genuine: number;
	falseNonMatch: number;
	impostor: number;
	falseMatch: number;
	/** Pairs below the threshold with a doubted reference (washed out, cut by the photo's edge): "reference unusable", neither a match nor a non-match. */
	noVerdict: number;
	genuineScores: number[];
	worstImpostor: number;
	failures: string[];
}

/**
 * Compares one damaged reference of `subject` with every other clean photo and counts the pairs.
 * `doubt`: why the server doubts the reference (its face brighter than MAX_LUMINANCE, or cut by the
 * photo's edge), so that a non-match is no verdict; null when it does not;
 * `label`: how a false non-match names the reference in the failures.
 */
export function tallyPairs(tally: PairTally, embedding: Float32Array, subject: FacePhoto, photos: readonly FacePhoto[], clean: ReadonlyMap<string, Float32Array>, { doubt, label }: { doubt: string | null; label: string }): void {
	const name = subject.file.split('/').pop()!;
	for (const q of photos) {
		const other = clean.get(q.file);
		if (!other || q.file === subject.file) continue;
		const s = cosineSimilarity(embedding, other);
		const otherName = q.file.split('/').pop();
		if (q.identity === subject.identity) {
			tally.genuine++;
			tally.genuineScores.push(s);
			if (s < MATCH_THRESHOLD && doubt) {
				tally.noVerdict++;
				tally.failures.push(`${name} (${doubt}) vs ${otherName}: ${s.toFixed(2)}, reference unusable`);
			} else if (s < MATCH_THRESHOLD) {
				tally.falseNonMatch++;
				tally.failures.push(`${name} (${label}) vs ${otherName}: ${s.toFixed(2)}`);
			}
		} else {
			tally.impostor++;
			tally.worstImpostor = Math.max(tally.worstImpostor, s);
			if (s < MATCH_THRESHOLD && doubt) tally.noVerdict++;
			if (s >= MATCH_THRESHOLD) {
				tally.falseMatch++;
				tally.failures.push(`${name} matched ${otherName}: ${s.toFixed(2)}`);
			}
		}
	}
}

/** How a failure line names a reference's doubt (face-reference.ts referenceDoubts); null when there is none. */
export function doubtLabel(d: ReferenceDoubts): string | null {
	if (d.washedOut) return 'washed out';
	if (d.blurred) return 'blurred';
	if (d.cutByEdge) return 'cut by the edge';
	if (d.overprinted) return 'text across the face';
	return d.hidden ? `${d.hidden.join(' and ')} hidden` : null;
}
