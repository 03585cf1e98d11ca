import { describe, expect, it } from 'vitest';
import { distinctFaces } from './distinct-faces.ts';

const face = (x: number, y: number, width: number, height = width) => ({ box: { x, y, width, height } });

describe('distinctFaces', () => {
	const main = face(100, 80, 200, 240);

	it('does not count a box nested in the main face, or a speck in the background, as another person', () => {
		expect(distinctFaces([face(150, 120, 90, 100), main])).toEqual([main]);
		expect(distinctFaces([main, face(20, 10, 8, 10)])).toEqual([main]);
	});

	it('counts a real second person, beside or half behind the first', () => {
		const beside = face(330, 60, 150, 170);
		expect(distinctFaces([beside, main])).toEqual([main, beside]);
		const behind = face(260, 40, 120, 140); // overlaps the main face, mostly outside it
		expect(distinctFaces([main, behind])).toHaveLength(2);
	});

	it('has no people without boxes, and ignores empty ones', () => {
		expect(distinctFaces([])).toEqual([]);
		expect(distinctFaces([face(0, 0, 0)])).toEqual([]);
	});
});
