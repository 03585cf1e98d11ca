import { describe, expect, it } from 'vitest';
import { subjectFrames } from './subject-frames.ts';

const box = (x: number, width = 200) => ({ x, y: 100, width, height: 1.2 * width });
const frame = (t: number, faceCount: number, x: number | null, width = 200) => ({ t, faceCount, face: x === null ? null : { box: box(x, width) } });

describe('subjectFrames', () => {
	it('keeps one-face frames, and several-face frames whose largest face stands where the subject stood', () => {
		const frames = [frame(0, 1, 200), frame(100, 2, 230), frame(200, 1, 250), frame(300, 0, null)];
		expect(subjectFrames(frames).map((f) => f.t)).toEqual([0, 100, 200]);
	});

	it('leaves out a several-face frame whose largest face is elsewhere or of another size than the nearest one-face frame', () => {
		const frames = [frame(0, 1, 200), frame(100, 2, 450), frame(200, 2, 200, 300), frame(900, 1, 200)];
		expect(subjectFrames(frames).map((f) => f.t)).toEqual([0, 900]);
	});

	it('leaves out several-face frames when no frame shows the subject alone', () => {
		expect(subjectFrames([frame(0, 2, 200), frame(100, 3, 200)])).toEqual([]);
	});
});
