import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

type Sharp = ReturnType<typeof sharp>;
import { describe, expect, it } from 'vitest';
import type { Raster } from '#lib/documents/raster.ts';
import { glare, seededRandom } from '../../../../scripts/eval/camera-damage.ts';
import { checkFrame, SAME_SIDE_MAX, sideSignature, signatureDistance } from './document-check.ts';

const DOCS = path.resolve(import.meta.dirname, '../../../../tests/fixtures/documents');

/** A fixture as the page sees a camera frame: RGBA (ImageData), 640 wide. */
async function frame(file: string, op: (s: Sharp) => Sharp = (s) => s, width = 640): Promise<Raster> {
	const { data, info } = await op(sharp(readFileSync(path.join(DOCS, file))).resize({ width })).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
	return { width: info.width, height: info.height, channels: 4, data: new Uint8ClampedArray(data) };
}

describe('checkFrame (the page’s per-frame look)', () => {
	it('a flat, sharp passport in view is worth capturing', async () => {
		const c = checkFrame(await frame('td3-passport.jpg'));
		expect(c).toMatchObject({ guidance: 'holdFlat', good: true });
		expect(c.coverage).toBeGreaterThan(0.6);
		expect(c.quality!.sharpness).toBeGreaterThan(500);
		expect(c.quad).toHaveLength(4);
	});

	it('asks to hold still when the frame is blurred', async () => {
		const c = checkFrame(await frame('td3-passport.jpg', (s) => s.blur(4)));
		expect(c).toMatchObject({ guidance: 'blur', good: false });
	});

	it('asks to tilt away from the light when a reflection covers part of it', async () => {
		const base = await frame('td3-passport.jpg', (s) => s.removeAlpha(), 640);
		const rgb: Raster = { ...base, channels: 3, data: new Uint8Array(base.width * base.height * 3) };
		for (let i = 0, j = 0; i < base.width * base.height; i++, j += 4) rgb.data.set(base.data.subarray(j, j + 3), i * 3);
		const c = checkFrame(glare(rgb, 0.25, seededRandom(7)));
		expect(c).toMatchObject({ guidance: 'glare', good: false });
	});

	it('asks to come closer when the document is small in the frame, and to fit it in when there is none', async () => {
		const small = await frame('td3-passport.jpg', (s) => s.resize({ width: 360 }).extend({ top: 107, bottom: 107, left: 140, right: 140, background: '#30343c' }), 640);
		expect(checkFrame(small)).toMatchObject({ guidance: 'moveCloser', good: false });
		const empty: Raster = { width: 640, height: 480, channels: 4, data: new Uint8ClampedArray(640 * 480 * 4).fill(90) };
		expect(checkFrame(empty)).toMatchObject({ guidance: 'fitInFrame', good: false, quad: null });
	});

	it('tells the back of a card from its front (MULTI_SIDE waits until the card is turned over)', async () => {
		const sig = async (file: string, op?: (s: Sharp) => Sharp) => {
			const f = await frame(file, op);
			const c = checkFrame(f);
			return sideSignature(f, c.quad!);
		};
		const front = await sig('td1-id-front.jpg');
		const frontMoved = await sig('td1-id-front.jpg', (s) => s.extend({ top: 12, left: 20, bottom: 0, right: 0, background: '#333a44' }).modulate({ brightness: 1.08 }));
		const back = await sig('td1-id-back.jpg');
		expect(signatureDistance(front, frontMoved)).toBeLessThan(SAME_SIDE_MAX);
		expect(signatureDistance(front, back)).toBeGreaterThan(SAME_SIDE_MAX);
	});
});
