import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { NodeOf } from '#lib/domain/flow/flow.schema.ts';
import { MATCH_THRESHOLD } from '#lib/domain/face/thresholds.ts';
import { FaceEngine } from '../../biometrics/face-engine.ts';
import { compareWithReference, referencePresent, sessionReferenceKey, type ReferenceDeps } from './face-reference.ts';

const compare = (extra: Partial<NodeOf<'face_compare'>> = {}) =>
	({ id: 'cmp', type: 'face_compare', referenceImageSource: 'session', outcomes: { match: 'end', noMatch: 'end', imageUnavailable: 'end' }, ...extra }) as NodeOf<'face_compare'>;
const face = (capturedAt: number, nodeId: string) => ({ type: 'face', template: 'AAAAAAAAAAAA', capturedAt, nodeId });
const portrait = { type: 'image', mediaId: 'm1' };
const session = { settings: {} } as never;

describe('sessionReferenceKey', () => {
	it('reads the named key when the node names one, saved or not', () => {
		expect(sessionReferenceKey(compare({ referenceImageKey: 'idPhoto' }), { selfie: face(1, 'a') })).toBe('idPhoto');
	});

	it('without a key, takes the face captured last, whatever order the data keeps', () => {
		const data = { later: face(2000, 'b'), earlier: face(1000, 'a'), documentPortrait: portrait };
		expect(sessionReferenceKey(compare(), data)).toBe('later');
	});

	it('falls back to the document portrait, and to nothing when the session holds no face', () => {
		expect(sessionReferenceKey(compare(), { documentPortrait: portrait, email: 'a@b.c' })).toBe('documentPortrait');
		expect(sessionReferenceKey(compare(), { email: 'a@b.c', documentPortrait: 'not an image record' })).toBeNull();
		expect(referencePresent(compare(), session, {})).toBe(false);
		expect(referencePresent(compare(), session, { documentPortrait: portrait })).toBe(true);
	});
});

// A reference photo handed over as providedData, compared by the real engine.
const fixture = (name: string) => readFileSync(new URL(`../../../../../tests/fixtures/faces/${name}`, import.meta.url));
const provided = compare({ referenceImageSource: 'providedData', referenceImageKey: 'photo' });
const withPhoto = async (bytes: Buffer) => ({ settings: { providedData: { photo: bytes.toString('base64') } } }) as never;
const unused = () => Promise.reject(new Error('not used'));

describe('compareWithReference: a reference face too small to compare', () => {
	it('is refused as unusable below 32 px, and compared above it', { timeout: 30_000 }, async () => {
		const engine = await FaceEngine.create();
		const deps: ReferenceDeps = { engine: async () => engine, sink: {} as never, fetchImage: unused, protect: unused };
		const probe = (await engine.analyseReference(fixture('barack_obama_2.jpg')))!.face.embedding!;
		const photo = fixture('barack_obama_1.jpg');
		const faceWidth = (await engine.analyseReference(photo))!.face.box.width;
		const { width = 0 } = await sharp(photo).metadata();
		// The whole photo shrunk until its face is ~20 px wide (the embedding is no longer his), then ~60 px.
		const shrunk = (face: number) => sharp(photo).resize({ width: Math.round((width * face) / faceWidth) }).jpeg({ quality: 90 }).toBuffer();
		const tiny = await compareWithReference(provided, await withPhoto(await shrunk(20)), {}, probe, deps);
		expect(tiny.ok).toBe(false);
		expect(tiny.ok ? '' : tiny.error).toMatch(/too small to compare \(\d+ px wide; at least 32\)/);
		const small = await compareWithReference(provided, await withPhoto(await shrunk(60)), {}, probe, deps);
		expect(small.ok && small.similarity).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
	});

	it('says so when the photo holds only the lower part of the face, and that no face is no face', { timeout: 30_000 }, async () => {
		const engine = await FaceEngine.create();
		const deps: ReferenceDeps = { engine: async () => engine, sink: {} as never, fetchImage: unused, protect: unused };
		const photo = fixture('barack_obama_2.jpg');
		const [left, right, , mouthLeft, mouthRight] = (await engine.analyseReference(photo))!.face.landmarks5;
		const eyes = (left.y + right.y) / 2;
		const { width = 0, height = 0 } = await sharp(photo).metadata();
		// The decoded photo is the stored one here (under 2048 px): cut 0.6 of eyes-to-mouth below the eyes.
		const top = Math.round(eyes + 0.6 * ((mouthLeft.y + mouthRight.y) / 2 - eyes));
		const chin = await sharp(photo).extract({ left: 0, top, width, height: height - top }).jpeg({ quality: 92 }).toBuffer();
		const cut = await compareWithReference(provided, await withPhoto(chin), {}, null, deps);
		expect(cut.ok ? '' : cut.error).toBe('the reference image holds only part of a face (cut off by its edge): send one with the whole face');
		const none = await compareWithReference(provided, await withPhoto(fixture('no_face_coffee.jpg')), {}, null, deps);
		expect(none.ok ? '' : none.error).toBe('no face in the reference image');
	});

	it("marks a reference whose face the photo's edge cuts, and compares it still", { timeout: 60_000 }, async () => {
		const engine = await FaceEngine.create();
		const deps: ReferenceDeps = { engine: async () => engine, sink: {} as never, fetchImage: unused, protect: unused };
		const probe = (await engine.analyseReference(fixture('barack_obama_2.jpg')))!.face.embedding!;
		const photo = fixture('barack_obama_1.jpg');
		const [left, right, , mouthLeft, mouthRight] = (await engine.analyseReference(photo))!.face.landmarks5;
		const eyes = (left.y + right.y) / 2;
		const mouth = (mouthLeft.y + mouthRight.y) / 2;
		const { width = 0, height = 0 } = await sharp(photo).metadata();
		const rows = (top: number, bottom: number) => sharp(photo).extract({ left: 0, top: Math.round(top), width, height: Math.round(bottom - top) }).jpeg({ quality: 92 }).toBuffer();
		const judged = async (bytes: Buffer) => {
			const r = await compareWithReference(provided, await withPhoto(bytes), {}, probe, deps);
			expect(r).toMatchObject({ ok: true, kind: 'image' });
			return r.ok ? Boolean(r.cutByEdge) : null;
		};
		expect(await judged(photo)).toBe(false);
		// The top edge across the forehead, the bottom edge below the mouth: the features are all there.
		expect(await judged(await rows(eyes - 0.6 * (mouth - eyes), height))).toBe(false);
		expect(await judged(await rows(0, mouth + 0.3 * (mouth - eyes)))).toBe(false);
		// The top edge through the eyes; the bottom edge through the mouth (he matched himself at 0.05–0.09 so).
		expect(await judged(await rows(eyes, height))).toBe(true);
		expect(await judged(await rows(0, mouth))).toBe(true);
	});

	it('marks a reference whose face is brighter than a capture may be as washed out, and compares it still', { timeout: 30_000 }, async () => {
		const engine = await FaceEngine.create();
		const deps: ReferenceDeps = { engine: async () => engine, sink: {} as never, fetchImage: unused, protect: unused };
		const probe = (await engine.analyseReference(fixture('barack_obama_2.jpg')))!.face.embedding!;
		const photo = fixture('barack_obama_1.jpg');
		const as = await compareWithReference(provided, await withPhoto(photo), {}, probe, deps);
		expect(as).toMatchObject({ ok: true, kind: 'image' });
		expect(as.ok && as.washedOut).toBeFalsy();
		// Exposure ×1.9 + 40: the face's mean grey 146 -> ~240, most of its skin clipped white.
		const blown = await compareWithReference(provided, await withPhoto(await sharp(photo).linear(1.9, 40).jpeg({ quality: 88 }).toBuffer()), {}, probe, deps);
		expect(blown).toMatchObject({ ok: true, kind: 'image', washedOut: true });
		expect(blown.ok && blown.similarity).toBeGreaterThan(0);
	});
});

describe('compareWithReference: a reference whose eyes or mouth are covered', () => {
	it('marks dark glasses, a coloured mask, a white and a black one as hidden features, and a bare face not', { timeout: 60_000 }, async () => {
		const engine = await FaceEngine.create();
		const deps: ReferenceDeps = { engine: async () => engine, sink: {} as never, fetchImage: unused, protect: unused };
		const probe = (await engine.analyseReference(fixture('barack_obama_2.jpg')))!.face.embedding!;
		const photo = fixture('barack_obama_1.jpg');
		const { landmarks } = (await engine.analyseReference(photo))!.face;
		const { width = 0, height = 0 } = await sharp(photo).metadata();
		const at = (i: number) => ({ x: landmarks[2 * i], y: landmarks[2 * i + 1] });
		const eye = (from: number) => ({ x: [0, 1, 2, 3, 4, 5].reduce((s, k) => s + at(from + k).x, 0) / 6, y: [0, 1, 2, 3, 4, 5].reduce((s, k) => s + at(from + k).y, 0) / 6 });
		const [le, re] = [eye(36), eye(42)];
		const gap = re.x - le.x;
		const drawn = (svg: string) => sharp(photo).composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${svg}</svg>`) }]).jpeg({ quality: 90 }).toBuffer();
		const lens = (c: { x: number; y: number }) => `<ellipse cx="${c.x}" cy="${c.y}" rx="${0.42 * gap}" ry="${0.3 * gap}" fill="#1a1a1a" opacity="0.9"/>`;
		const jaw = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map(at);
		const mask = `<polygon points="${[...jaw, { x: at(15).x, y: at(29).y }, { x: at(1).x, y: at(29).y }].map((p) => `${p.x},${p.y}`).join(' ')}" fill="#8fbcd4"/>`;
		const judged = async (bytes: Buffer) => {
			const r = await compareWithReference(provided, await withPhoto(bytes), {}, probe, deps);
			expect(r).toMatchObject({ ok: true, kind: 'image' });
			return r.ok ? (r.hidden ?? []) : null;
		};
		expect(await judged(photo)).toEqual([]);
		expect(await judged(await sharp(photo).linear(0.4, 0).jpeg({ quality: 90 }).toBuffer())).toEqual([]);
		expect(await judged(await drawn(lens(le) + lens(re)))).toEqual(['eyes']);
		expect(await judged(await drawn(mask))).toEqual(['mouth']);
		// A white surgical mask: no colour to set it apart, but greyer, brighter and more even than skin.
		const whiteMask = `<defs><linearGradient id="w" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f5f7f8"/><stop offset="1" stop-color="#c4cacf"/></linearGradient></defs>${mask.replace('fill="#8fbcd4"', 'fill="url(#w)"')}`;
		expect(await judged(await drawn(whiteMask))).toEqual(['mouth']);
		// The same mask on a face lit near white (stage light): the skin at ~215 of 255, the mask no
		// brighter than it, but without its colour or texture (deepface's photos: 15 such misses of 61).
		const litPhoto = await sharp(photo).linear(1.35, 22).jpeg({ quality: 92 }).toBuffer();
		const lit = (svg: string) => sharp(litPhoto).composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${svg}</svg>`) }]).jpeg({ quality: 90 }).toBuffer();
		expect(await judged(litPhoto)).toEqual([]);
		expect(await judged(await lit(whiteMask))).toEqual(['mouth']);
		// A black cloth mask: dark and grey over the lips as well (a dark beard leaves the lower lip bare).
		const blackMask = `<defs><linearGradient id="b" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2a2b2e"/><stop offset="1" stop-color="#121214"/></linearGradient></defs>${mask.replace('fill="#8fbcd4"', 'fill="url(#b)"')}`;
		expect(await judged(await drawn(blackMask))).toEqual(['mouth']);
		// The same darkness below the mouth only, the lips left bare (where a beard grows): not a mask.
		const belowLips = `<polygon points="${[...jaw.slice(2, 13), at(54), at(57), at(48)].map((p) => `${p.x},${p.y}`).join(' ')}" fill="url(#b)"/>`;
		expect(await judged(await drawn(blackMask.replace(/<polygon[^>]*\/>/, belowLips)))).toEqual([]);
		// A pink mask, nearer the skin's colour than the blue one, shaded as cloth is: even as no lower face is.
		const pinkMask = `<defs><linearGradient id="p" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f0b0c4"/><stop offset="1" stop-color="#c07890"/></linearGradient></defs>${mask.replace('fill="#8fbcd4"', 'fill="url(#p)"')}`;
		expect(await judged(await drawn(pinkMask))).toEqual(['mouth']);
		// The same pink laid over the skin at half strength (coloured light, make-up): as far from the
		// skin's colour, but with the skin's own texture under it: not a mask.
		expect(await judged(await drawn(pinkMask.replace('fill="url(#p)"', 'fill="url(#p)" opacity="0.5"')))).toEqual([]);
		// A grey photo has no colour to tell a mask from skin by: the mouth is not judged.
		expect(await judged(await sharp(await drawn(mask)).greyscale().jpeg().toBuffer())).toEqual([]);
	});
});

describe('compareWithReference: a reference with text printed across its face', () => {
	it('marks a watermark or a stamp across the face of a reference that does not match, and neither the bare face nor a caption below it', { timeout: 90_000 }, async () => {
		const engine = await FaceEngine.create();
		const deps: ReferenceDeps = { engine: async () => engine, sink: {} as never, fetchImage: unused, protect: unused };
		// Someone else: the text is only looked for where it can change the verdict, a non-match.
		const probe = (await engine.analyseReference(fixture('eileen_collins_1.jpg')))!.face.embedding!;
		const photo = fixture('barack_obama_1.jpg');
		const { box } = (await engine.analyseReference(photo))!.face;
		const { width = 0, height = 0 } = await sharp(photo).metadata();
		const drawn = (svg: string) => sharp(photo).composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${svg}</svg>`) }]).jpeg({ quality: 90 }).toBuffer();
		const cx = box.x + box.width / 2;
		const word = (text: string, y: number, fill: string, opacity: number, angle: number) =>
			`<text x="${cx}" y="${y}" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="${Math.round(0.26 * box.width)}" fill="${fill}" opacity="${opacity}" transform="rotate(${angle} ${cx} ${y})">${text}</text>`;
		const judged = async (bytes: Buffer) => {
			const r = await compareWithReference(provided, await withPhoto(bytes), {}, probe, deps);
			expect(r).toMatchObject({ ok: true, kind: 'image' });
			return r.ok ? Boolean(r.overprinted) : null;
		};
		expect(await judged(photo)).toBe(false);
		// A pale stock-photo watermark across the cheeks, and a dark stamp across mouth and chin. (The same
		// stamp across the brows is boxed with them as one and missed: README, Limits.)
		expect(await judged(await drawn(word('PREVIEW', box.y + 0.62 * box.height, '#fff', 0.5, -15)))).toBe(true);
		expect(await judged(await drawn(word('COPY', box.y + 0.78 * box.height, '#111', 0.5, 12)))).toBe(true);
		// A caption under the chin leaves the face as it is.
		const caption = `<text x="${cx}" y="${Math.min(height - 4, box.y + box.height + 0.3 * box.width)}" text-anchor="middle" font-family="DejaVu Sans" font-size="${Math.round(0.12 * box.width)}" fill="#fff">President Barack Obama</text>`;
		expect(await judged(await drawn(caption))).toBe(false);
		// Its owner matches through the watermark: a match stands, and the text is not read for it.
		const own = (await engine.analyseReference(fixture('barack_obama_2.jpg')))!.face.embedding!;
		const matched = await compareWithReference(provided, await withPhoto(await drawn(word('PREVIEW', box.y + 0.62 * box.height, '#fff', 0.5, -15))), {}, own, deps);
		expect(matched).toMatchObject({ ok: true, kind: 'image' });
		expect(matched.ok && matched.similarity).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
		expect(matched.ok && matched.overprinted).toBeFalsy();
	});
});

describe('compareWithReference: the text check unavailable', () => {
	it('judges a non-match as before when the OCR models cannot load, rather than failing the compare', { timeout: 60_000 }, async () => {
		const engine = await FaceEngine.create({ text: () => Promise.reject(new Error('models missing')) });
		const deps: ReferenceDeps = { engine: async () => engine, sink: {} as never, fetchImage: unused, protect: unused };
		const probe = (await engine.analyseReference(fixture('eileen_collins_1.jpg'), undefined, { readText: false }))!.face.embedding!;
		const r = await compareWithReference(provided, await withPhoto(fixture('barack_obama_1.jpg')), {}, probe, deps);
		expect(r).toMatchObject({ ok: true, kind: 'image' });
		expect(r.ok && r.similarity).toBeLessThan(MATCH_THRESHOLD);
		expect(r.ok && r.overprinted).toBeFalsy();
	});
});
