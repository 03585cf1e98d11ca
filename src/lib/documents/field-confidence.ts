import { fieldsOnLines } from './mrz-decode.ts';
import { isMrzLayout } from './mrz-lines.ts';
import type { MrzReading } from './mrz-parse.ts';

/**
 * A field the recogniser was less sure of than this (mrz-decode.ts field confidence) makes the
 * reading uncertain: the page asks for another capture instead of passing a possibly wrong value.
 * Chosen on the generated set (scripts/eval/documents-synthetic.ts), never on the shared fixtures:
 * there, wrongly read names scored at most 0.68 and 90 % of rightly read ones above 0.8.
 */
export const MIN_FIELD_CONFIDENCE = 0.75;

/**
 * How sure a field can be whose glyphs lie on an MRZ line the photo did not show whole: cut by its
 * edge (mrz-edge.ts `mrzCutLines`) or with glyphs the recogniser saw nothing at (mrz-unseen.ts, a
 * thumb over it). The decoder fills the lost glyphs from the grammar alone, and they read as surely
 * as seen ones (seed 7272, 2026-12-06: cut document codes at 0.75–0.99, a given name past the cut
 * or under the thumb at 0.98). Below MIN_FIELD_CONFIDENCE, so the field is reported in doubt unless
 * the printed page vouches for it.
 */
export const UNSEEN_LINE_CONFIDENCE = 0.5;

/** `reading` with every field on `lines` no surer than UNSEEN_LINE_CONFIDENCE; as it was if it has no confidences. */
export function withLinesDoubted(reading: MrzReading, lines: readonly number[]): MrzReading {
	if (!reading.fieldConfidence || lines.length === 0 || !isMrzLayout(reading.format)) return reading;
	const fieldConfidence = { ...reading.fieldConfidence };
	for (const f of fieldsOnLines(reading.format, lines)) fieldConfidence[f] = Math.min(fieldConfidence[f] ?? 1, UNSEEN_LINE_CONFIDENCE);
	return { ...reading, fieldConfidence };
}
