import type { Box } from './image.ts';

/**
 * Which detector boxes are people. A detector also fires on part of the main face (a box nested in
 * it) and on specks in the background (an 8×10 px box behind the user); counting those as "another
 * person" ended genuine tries with `multipleFaces`. A real second person is a face of its own, not
 * inside the main one, and of a size a person near the camera has.
 */

/** A face whose side is below this share of the main face's side is not counted as a person. */
export const MIN_PERSON_SIDE_RATIO = 0.3;
/** A box with at least this share of its area inside the main face is part of it. */
export const NESTED_SHARE = 0.5;

const area = (b: Box) => Math.max(0, b.width) * Math.max(0, b.height);

function overlap(a: Box, b: Box): number {
	const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
	const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
	return w > 0 && h > 0 ? w * h : 0;
}

/**
 * The detections that are people, largest first: the largest face, and every other face that is
 * neither mostly inside it nor far smaller than it.
 */
export function distinctFaces<T extends { box: Box }>(detections: readonly T[]): T[] {
	const sorted = [...detections].filter((d) => area(d.box) > 0).sort((a, b) => area(b.box) - area(a.box));
	const main = sorted[0];
	if (!main) return [];
	const mainSide = Math.sqrt(area(main.box));
	const people = [main];
	for (const d of sorted.slice(1)) {
		if (overlap(d.box, main.box) >= NESTED_SHARE * area(d.box)) continue;
		if (Math.sqrt(area(d.box)) < MIN_PERSON_SIDE_RATIO * mainSide) continue;
		people.push(d);
	}
	return people;
}
