/**
 * Deterministic synthetic camera damage for document images: rotation, perspective, blur, glare
 * (pure raster work) and JPEG re-encoding (sharp). Shared by the document evaluation and the engine
 * tests. Every random choice comes from a seeded generator, so a run is reproducible.
 */
import sharp from 'sharp';
import { homographyFromPoints } from '../../src/lib/documents/homography.ts';
import { quarterTurn, sampleBilinear, type Point, type Raster } from '../../src/lib/documents/raster.ts';
import { rotateRaster, warpPerspective } from '../../src/lib/documents/warp.ts';

/** mulberry32: small, fast, good enough for test variety. */
export function seededRandom(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const DESK = [52, 58, 70, 255];

/** Rotates by `degrees` (counter-clockwise), canvas grown, corners filled with a desk colour. */
export function rotate(src: Raster, degrees: number): Raster {
	return rotateRaster(src, degrees, { expand: true, fill: DESK }).raster;
}

/**
 * Mild perspective: each corner moves inward by up to `strength` of the image size (as when the
 * phone is not held parallel to the document), chosen by `random`.
 */
export function perspective(src: Raster, strength: number, random: () => number): Raster {
	const { width: w, height: h } = src;
	const from: Point[] = [
		[0, 0],
		[w, 0],
		[w, h],
		[0, h]
	];
	const j = () => random() * strength;
	const to: Point[] = [
		[j() * w, j() * h],
		[w - j() * w, j() * h],
		[w - j() * w, h - j() * h],
		[j() * w, h - j() * h]
	];
	const m = homographyFromPoints(from, to);
	if (!m) throw new Error('degenerate perspective');
	return warpPerspective(src, m, w, h, DESK);
}

/**
 * A page that is not flat, photographed through a lens that is not either. `bow`: the page bulges
 * towards the camera like a cylinder standing across its lines (a card flexed in the hand, a booklet's
 * data page held open), so its middle shows up to 1 + `bow` times as large as its edges, about the
 * image's centre: straight lines of print become arcs, furthest from straight far from the centre,
 * where an MRZ is. `barrel`: a lens's radial distortion, a point at the corner drawn `barrel` of its
 * radius nearer the centre (a phone's camera held close: its lines bow outwards). Inverse mapping,
 * bilinear; pixels from outside the source get the desk colour.
 */
export function bend(src: Raster, bow: number, barrel: number): Raster {
	const { width: w, height: h, channels: c } = src;
	const out = new Uint8Array(w * h * c);
	const cx = w / 2, cy = h / 2, rr = (cx * cx + cy * cy);
	for (let y = 0; y < h; y++)
		for (let x = 0; x < w; x++) {
			// The lens: the drawn point lies (1 − barrel·r²) of the way to where the flat picture has it.
			const k = 1 - barrel * (((x - cx) ** 2 + (y - cy) ** 2) / rr);
			const ux = cx + (x - cx) / k, uy = cy + (y - cy) / k;
			// The bulge: the page's middle (across its lines) magnified most.
			const u = (ux - cx) / cx;
			const m = 1 + bow * Math.max(0, 1 - u * u);
			const o = (y * w + x) * c;
			if (!sampleBilinear(src, cx + (ux - cx) / m, cy + (uy - cy) / m, out, o)) for (let ch = 0; ch < c; ch++) out[o + ch] = DESK[ch];
		}
	return { ...src, data: out };
}

/** Box blur of the given radius, applied twice (close to a Gaussian of sigma ≈ radius). */
export function blur(src: Raster, radius: number): Raster {
	let cur = src;
	for (let pass = 0; pass < 2; pass++) cur = boxBlurVertical(boxBlurHorizontal(cur, radius), radius);
	return cur;
}

function boxBlurHorizontal(src: Raster, r: number): Raster {
	const { width: w, height: h, channels: c, data } = src;
	const out = new Uint8Array(data.length);
	for (let y = 0; y < h; y++)
		for (let ch = 0; ch < c; ch++) {
			let sum = 0;
			for (let x = -r; x <= r; x++) sum += data[(y * w + Math.min(w - 1, Math.max(0, x))) * c + ch];
			for (let x = 0; x < w; x++) {
				out[(y * w + x) * c + ch] = Math.round(sum / (2 * r + 1));
				sum += data[(y * w + Math.min(w - 1, x + r + 1)) * c + ch] - data[(y * w + Math.max(0, x - r)) * c + ch];
			}
		}
	return { ...src, data: out };
}

function boxBlurVertical(src: Raster, r: number): Raster {
	const { width: w, height: h, channels: c, data } = src;
	const out = new Uint8Array(data.length);
	for (let x = 0; x < w; x++)
		for (let ch = 0; ch < c; ch++) {
			let sum = 0;
			for (let y = -r; y <= r; y++) sum += data[(Math.min(h - 1, Math.max(0, y)) * w + x) * c + ch];
			for (let y = 0; y < h; y++) {
				out[(y * w + x) * c + ch] = Math.round(sum / (2 * r + 1));
				sum += data[(Math.min(h - 1, y + r + 1) * w + x) * c + ch] - data[(Math.max(0, y - r) * w + x) * c + ch];
			}
		}
	return { ...src, data: out };
}

/** A specular glare blob: a soft white ellipse of radius `size` × the shorter side, placed by `random`. */
export function glare(src: Raster, size: number, random: () => number): Raster {
	const cx = (0.2 + 0.6 * random()) * src.width;
	const cy = (0.15 + 0.5 * random()) * src.height;
	return glareAt(src, size, cx, cy);
}

/**
 * A specular glare blob centred at (`cx`, `cy`) px: a soft white ellipse 1.6 times as wide as high,
 * of radius `size` × the shorter side, lifting each pixel towards white by up to `strength` at its
 * centre (0.92: black ink comes out 20 grey levels below white paper).
 */
export function glareAt(src: Raster, size: number, cx: number, cy: number, strength = 0.92): Raster {
	const { width: w, height: h, channels: c, data } = src;
	const out = new Uint8Array(data);
	const r = size * Math.min(w, h);
	for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(h, Math.ceil(cy + r)); y++)
		for (let x = Math.max(0, Math.floor(cx - 1.6 * r)); x < Math.min(w, Math.ceil(cx + 1.6 * r)); x++) {
			const d = Math.hypot((x - cx) / 1.6, y - cy) / r;
			if (d >= 1) continue;
			const a = strength * (1 - d * d);
			for (let ch = 0; ch < Math.min(3, c); ch++) {
				const k = (y * w + x) * c + ch;
				out[k] = Math.round(data[k] + (255 - data[k]) * a);
			}
		}
	return { ...src, data: out };
}

/**
 * Hand shake during the exposure: the image smeared along a straight path `length` px long at
 * `degrees` from the horizontal (a box kernel along the path, sampled bilinearly at 1-px steps). A
 * phone held in the hand at 1/30 s moves a few pixels; unlike `blur`, one direction is smeared and
 * the other kept sharp, so strokes across the motion survive and strokes along it merge.
 */
export function motionBlur(src: Raster, length: number, degrees: number): Raster {
	const { width: w, height: h, channels: c, data } = src;
	const out = new Uint8Array(data.length);
	const r = (degrees * Math.PI) / 180;
	const steps = Math.max(1, Math.round(length));
	const offsets = Array.from({ length: steps + 1 }, (_, k) => {
		const t = k / steps - 0.5;
		return [t * length * Math.cos(r), t * length * Math.sin(r)] as const;
	});
	const px = new Uint8Array(c);
	const sum = new Float64Array(c);
	for (let y = 0; y < h; y++)
		for (let x = 0; x < w; x++) {
			sum.fill(0);
			let n = 0;
			for (const [dx, dy] of offsets) {
				if (!sampleBilinear(src, x + dx, y + dy, px, 0)) continue;
				for (let ch = 0; ch < c; ch++) sum[ch] += px[ch];
				n++;
			}
			for (let ch = 0; ch < c; ch++) out[(y * w + x) * c + ch] = n ? Math.round(sum[ch] / n) : data[(y * w + x) * c + ch];
		}
	return { ...src, data: out };
}

/**
 * A room lit too dimly for the camera: the light scaled to `light` (0.25: a quarter), tinted by
 * `tint` (per channel, tungsten is warm: red kept, blue lost), then the sensor's noise, which does
 * not dim with the light (`sigma` grey levels, each pixel's channels alike in part, as a sensor's
 * luminance noise is), and the phone's gain bringing the mean back up by `gain`. What reaches the
 * reader is a page whose ink and paper are a few levels apart in a sea of grain.
 */
export function lowLight(src: Raster, light: number, tint: readonly [number, number, number], sigma: number, gain: number, random: () => number): Raster {
	const { channels: c, data } = src;
	const out = new Uint8Array(data.length);
	const gauss = () => Math.sqrt(-2 * Math.log(Math.max(1e-9, random()))) * Math.cos(2 * Math.PI * random());
	for (let i = 0; i < data.length; i += c) {
		const shared = gauss();
		for (let ch = 0; ch < c; ch++) {
			if (ch === 3) {
				out[i + ch] = data[i + ch];
				continue;
			}
			const n = sigma * (0.7 * shared + 0.3 * gauss());
			out[i + ch] = Math.max(0, Math.min(255, Math.round((data[i + ch] * light * tint[ch] + n) * gain)));
		}
	}
	return { ...src, data: out };
}

/**
 * A holographic laminate catching the light: over a broad soft patch (an ellipse centred at `cx`,
 * `cy`, `rx` × `ry` px), the film's fine diffractive pattern (wavy bands `period` px apart) glows in
 * colours that run through the rainbow along `degrees`, laid over the print with up to `strength` of
 * its light, within the `film` (the card's box, px: the laminate ends at the card's edge). Ink under
 * a bright band is washed towards that band's colour, not towards white as under a plain glare, and
 * the colour changes along the line.
 */
export function hologramAt(src: Raster, cx: number, cy: number, rx: number, ry: number, period: number, degrees: number, strength: number, film: { x0: number; y0: number; x1: number; y1: number }): Raster {
	const { width: w, height: h, channels: c, data } = src;
	const out = new Uint8Array(data);
	const r = (degrees * Math.PI) / 180;
	const [ux, uy] = [Math.cos(r), Math.sin(r)];
	for (let y = Math.max(0, Math.floor(film.y0), Math.floor(cy - ry)); y < Math.min(h, Math.ceil(film.y1), Math.ceil(cy + ry)); y++)
		for (let x = Math.max(0, Math.floor(film.x0), Math.floor(cx - rx)); x < Math.min(w, Math.ceil(film.x1), Math.ceil(cx + rx)); x++) {
			const d = Math.hypot((x - cx) / rx, (y - cy) / ry);
			if (d >= 1) continue;
			const along = (x - cx) * ux + (y - cy) * uy;
			const across = -(x - cx) * uy + (y - cy) * ux;
			// Bands that wave as a guilloche does, sharpened towards lines.
			const wave = Math.sin((2 * Math.PI * (across + 0.35 * period * Math.sin((2 * Math.PI * along) / (4 * period)))) / period);
			const band = Math.pow(0.5 + 0.5 * wave, 3);
			const a = strength * (1 - d * d) * (0.35 + 0.65 * band);
			const hue = ((along / (6 * period)) % 1 + 1) % 1;
			const rgb = rainbow(hue);
			for (let ch = 0; ch < Math.min(3, c); ch++) {
				const k = (y * w + x) * c + ch;
				out[k] = Math.round(data[k] * (1 - a) + rgb[ch] * a);
			}
		}
	return { ...src, data: out };
}

/** A saturated, light colour of hue `t` (0–1), as a diffraction film shows: never dark. */
function rainbow(t: number): [number, number, number] {
	const f = (n: number) => {
		const k = (n + t * 6) % 6;
		return 255 - 120 * Math.max(0, Math.min(1, Math.min(k, 4 - k)));
	};
	return [f(5), f(3), f(1)];
}

/**
 * A hard shadow over the page (the phone's, or the hand's that holds it): everything on one side of a
 * straight edge through (`x`, `y`) at `degrees` from the horizontal darkened to (1 − `darkness`) of
 * its light, the edge a penumbra `soft` px wide. The shadow falls on the side the edge's normal
 * (turned +90° from its direction) points to.
 */
export function shadowAt(src: Raster, x: number, y: number, degrees: number, darkness: number, soft: number): Raster {
	const { width: w, height: h, channels: c, data } = src;
	const out = new Uint8Array(data);
	const r = (degrees * Math.PI) / 180;
	const [nx, ny] = [-Math.sin(r), Math.cos(r)];
	for (let py = 0; py < h; py++)
		for (let px = 0; px < w; px++) {
			const d = (px - x) * nx + (py - y) * ny;
			if (d < -soft) continue;
			const t = d >= soft ? 1 : (d + soft) / (2 * soft);
			const k = 1 - darkness * t * t * (3 - 2 * t);
			for (let ch = 0; ch < Math.min(3, c); ch++) out[(py * w + px) * c + ch] = Math.round(data[(py * w + px) * c + ch] * k);
		}
	return { ...src, data: out };
}

/**
 * A fingertip over the page: an ellipse `rx` × `ry` px centred at (`cx`, `cy`) in a skin tone
 * (`rgb`), shaded darker towards its rim as a rounded finger is, with a 2-px soft edge and a nail's
 * paler band towards `nailSide` (+1: the nail points right, -1: left). Opaque: what it covers is gone,
 * as under a real thumb.
 */
export function thumbAt(src: Raster, cx: number, cy: number, rx: number, ry: number, rgb: readonly [number, number, number], nailSide: 1 | -1): Raster {
	const { width: w, height: h, channels: c, data } = src;
	const out = new Uint8Array(data);
	const feather = 2 / Math.min(rx, ry);
	for (let y = Math.max(0, Math.floor(cy - ry - 2)); y < Math.min(h, Math.ceil(cy + ry + 2)); y++)
		for (let x = Math.max(0, Math.floor(cx - rx - 2)); x < Math.min(w, Math.ceil(cx + rx + 2)); x++) {
			const u = (x - cx) / rx;
			const v = (y - cy) / ry;
			const d = Math.hypot(u, v);
			if (d >= 1 + feather) continue;
			const cover = d <= 1 ? 1 : 1 - (d - 1) / feather;
			// Lit from above: the top of the finger brighter, the rim darker.
			const shade = 1.08 - 0.35 * d * d - 0.12 * v;
			const nail = nailSide * u > 0.45 && Math.abs(v) < 0.45 ? 1.18 : 1;
			for (let ch = 0; ch < Math.min(3, c); ch++) {
				const k = (y * w + x) * c + ch;
				const skin = Math.max(0, Math.min(255, rgb[ch] * shade * nail));
				out[k] = Math.round(data[k] * (1 - cover) + skin * cover);
			}
		}
	return { ...src, data: out };
}

export async function toJpeg(src: Raster, quality: number): Promise<Buffer> {
	return sharp(Buffer.from(src.data.buffer, src.data.byteOffset, src.data.byteLength), { raw: { width: src.width, height: src.height, channels: src.channels } })
		.jpeg({ quality })
		.toBuffer();
}

export async function toPng(src: Raster): Promise<Buffer> {
	return sharp(Buffer.from(src.data.buffer, src.data.byteOffset, src.data.byteLength), { raw: { width: src.width, height: src.height, channels: src.channels } })
		.png({ compressionLevel: 1 })
		.toBuffer();
}

export type DamageName = 'none' | 'rotate5' | 'rotate10' | 'perspective' | 'blur' | 'jpeg40' | 'glare' | 'combined' | 'turn90' | 'turn270' | 'small' | 'turn180';
/** Added at the end: a damage's seed is its place here, so the earlier ones keep drawing the same photos. */
export const DAMAGES: readonly DamageName[] = ['none', 'rotate5', 'rotate10', 'perspective', 'blur', 'jpeg40', 'glare', 'combined', 'turn90', 'turn270', 'small', 'turn180'];

/** Applies a named damage to a decoded image and returns encoded bytes ready for the reader. */
export async function damage(src: Raster, name: DamageName, seed: number): Promise<Buffer> {
	const random = seededRandom(seed);
	const sign = random() < 0.5 ? -1 : 1;
	switch (name) {
		case 'none':
			return toPng(src);
		case 'rotate5':
			return toPng(rotate(src, 5 * sign));
		case 'rotate10':
			return toPng(rotate(src, 10 * sign));
		case 'perspective':
			return toPng(perspective(src, 0.08, random));
		case 'blur':
			return toPng(blur(src, Math.max(1, Math.round(Math.max(src.width, src.height) / 900))));
		case 'jpeg40':
			return toJpeg(src, 40);
		case 'glare':
			return toPng(glare(src, 0.22, random));
		case 'combined': {
			const angle = sign * (2 + 8 * random());
			let r = rotate(src, angle);
			r = perspective(r, 0.05, random);
			r = blur(r, 1);
			r = glare(r, 0.15, random);
			return toJpeg(r, 40);
		}
		// Stored sideways with no EXIF orientation to say so (a scan, a screenshot, a phone that dropped the tag).
		case 'turn90':
			return toPng(quarterTurn(src, true));
		case 'turn270':
			return toPng(quarterTurn(src, false));
		// Upside down, no EXIF orientation: a document held the wrong way up before the camera.
		case 'turn180':
			return toPng(quarterTurn(quarterTurn(src, true), true));
		// A web-sized copy: 0.6 of each side (lanczos), JPEG 85, as photos reach a service downscaled
		// by a messenger or a CMS. On the specimens that puts MRZ glyphs at 4–9 px tall.
		case 'small': {
			const w = Math.max(1, Math.round(src.width * 0.6));
			const h = Math.max(1, Math.round(src.height * 0.6));
			return sharp(Buffer.from(src.data.buffer, src.data.byteOffset, src.data.byteLength), { raw: { width: src.width, height: src.height, channels: src.channels } })
				.resize(w, h, { kernel: 'lanczos3', fit: 'fill' })
				.jpeg({ quality: 85 })
				.toBuffer();
		}
	}
}
