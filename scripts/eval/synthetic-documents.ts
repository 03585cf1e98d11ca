/**
 * A generated evaluation set of identity documents the reader has never seen: random valid
 * identities (long names, fillers, 0/O 1/I 8/B look-alikes) in TD1, TD2, TD3 and MRV layouts, drawn
 * with the fixtures' own SVG pieces (scripts/fixtures/document-svg.ts, MRZ in OCR-B from Debian's
 * fonts-ocr-b), each under one named damage. Deterministic from a seed: document i of seed s is
 * always the same bytes (for one libvips version).
 *
 * Damage i % DAMAGES.length goes to document i, so any prefix (--limit) is balanced over damages.
 */
import sharp, { type Sharp } from 'sharp';
import { states } from 'mrz';
import { buildMrz, type MrzSource } from '../../src/lib/documents/mrz-build.ts';
import type { Raster } from '../../src/lib/documents/raster.ts';
import { cardSvg, esc, label, mm, mrzLine, printedDate } from '../fixtures/document-svg.ts';
import { blur, glare, perspective, rotate, seededRandom, toJpeg, toPng } from './camera-damage.ts';

export type SyntheticLayout = 'TD1' | 'TD2' | 'TD3' | 'MRV-A' | 'MRV-B';
export const SYNTHETIC_DAMAGES = ['clean', 'guilloche', 'specimen', 'stamp', 'frontText', 'perspective', 'blur', 'glare', 'jpeg', 'exif', 'noise', 'combined'] as const;
export type SyntheticDamage = (typeof SYNTHETIC_DAMAGES)[number];

export interface SyntheticDocument {
	index: number;
	layout: SyntheticLayout;
	damage: SyntheticDamage;
	source: MrzSource;
	mrz: string[];
	/** Renders the damaged photo (PNG or JPEG bytes, possibly with an EXIF orientation). */
	/** The photo; `retake` > 0: the same printed document photographed again (new camera damage, same print). */
	render(retake?: number): Promise<Buffer>;
}

type Random = () => number;
const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Random, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const SYLLABLES = ['KA', 'KO', 'KI', 'SA', 'SU', 'BO', 'BI', 'DO', 'DI', 'OL', 'IO', 'MA', 'NE', 'RI', 'LO', 'VA', 'CK', 'SK', 'OB', 'ID', 'EK', 'AC', 'ZE', 'TH', 'GU', 'YE', 'HO', 'PE', 'WI', 'QU', 'XA', 'FI', 'JO', 'UN'];
const GIVEN = ['ANNA', 'KIRK', 'OLIVIA', 'BOB', 'DIDIER', 'ISAAC', 'KAROLINA', 'SAKURA', 'IOANNIS', 'OBIOMA', 'KEKOA', 'BIBI', 'ODILE', 'CLAUDE', 'KSENIA', 'ISIDORO', 'BO', 'IB', 'OK', 'MARIE', 'JOSE', 'SVEN', 'ZOE', 'LI'];
// Codes the mrz package knows, plus ICAO's specimen state and Germany's one-letter code.
const STATE_CODES = [...Object.keys(states), 'UTO', 'D'];
const LOOKALIKE = 'O0I1B8DS5Z2G6';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function word(r: Random, min = 2, max = 5): string {
	let s = '';
	const n = int(r, min, max);
	for (let i = 0; i < n; i++) s += pick(r, SYLLABLES);
	return s;
}

function surname(r: Random): string {
	const parts = r() < 0.25 ? 3 : r() < 0.4 ? 2 : 1;
	return Array.from({ length: parts }, () => word(r)).join(' ');
}

function givenNames(r: Random): string {
	if (r() < 0.06) return ''; // a holder with no given name: the field is surname then fillers
	const n = r() < 0.3 ? int(r, 2, 3) : 1;
	return Array.from({ length: n }, () => (r() < 0.5 ? pick(r, GIVEN) : word(r, 1, 4))).join(' ');
}

function documentNumber(r: Random): string {
	const len = r() < 0.2 ? int(r, 6, 8) : 9;
	let s = '';
	for (let i = 0; i < len; i++) s += r() < 0.45 ? pick(r, [...LOOKALIKE]) : pick(r, [...ALNUM]);
	return s;
}

function yymmdd(r: Random, fromYear: number, toYear: number): string {
	const y = int(r, fromYear, toYear);
	const m = int(r, 1, 12);
	const d = int(r, 1, new Date(Date.UTC(y, m, 0)).getUTCDate());
	return `${String(y % 100).padStart(2, '0')}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}`;
}

function optionalData(r: Random, max: number): string {
	if (r() < 0.55) return '';
	let s = '';
	const n = int(r, 3, max);
	for (let i = 0; i < n; i++) s += r() < 0.7 ? String(int(r, 0, 9)) : pick(r, [...LOOKALIKE]);
	return s;
}

function identity(r: Random, layout: SyntheticLayout): MrzSource {
	const code = layout === 'TD3' ? pick(r, ['P', 'P', 'PD', 'PO']) : layout.startsWith('MRV') ? pick(r, ['V', 'VS']) : layout === 'TD1' ? pick(r, ['ID', 'I', 'IR', 'AC']) : pick(r, ['I', 'ID', 'IR']);
	const state = pick(r, STATE_CODES);
	return {
		documentCode: code,
		issuingState: state,
		lastName: surname(r),
		firstName: givenNames(r),
		documentNumber: documentNumber(r),
		nationality: r() < 0.8 ? state : pick(r, STATE_CODES),
		birthDate: yymmdd(r, 1945, 2020),
		sex: pick(r, ['M', 'F', '<'] as const),
		expiryDate: yymmdd(r, 2021, 2039),
		optional: layout === 'TD3' ? optionalData(r, 14) : layout === 'TD1' ? optionalData(r, 15) : layout === 'TD2' ? optionalData(r, 7) : '',
		optional2: layout === 'TD1' ? optionalData(r, 11) : undefined
	};
}

interface Geometry {
	wMm: number;
	hMm: number;
	x: number;
	/** Baselines of the MRZ lines (mm from the top). */
	baselines: number[];
}

const GEOMETRY: Record<SyntheticLayout, Geometry> = {
	TD3: { wMm: 125, hMm: 88, x: 6, baselines: [77.5, 83.8] },
	'MRV-A': { wMm: 125, hMm: 88, x: 6, baselines: [77.5, 83.8] },
	TD2: { wMm: 105, hMm: 74, x: 5, baselines: [64, 69.8] },
	'MRV-B': { wMm: 105, hMm: 74, x: 5, baselines: [64, 69.8] },
	TD1: { wMm: 85.6, hMm: 54, x: 4.7, baselines: [39.8, 44.9, 50] }
};

const TINTS = ['#eef1f4', '#f1eee6', '#eef3ee', '#f3eef2', '#eaf0f5', '#f6f1e4'];
const HUES = ['#8aa1c0', '#b08fb8', '#8fb89a', '#c0a48a', '#9aa0a8'];

/** The visual zone: labels with the holder's data (the MRZ is below). TD1 is drawn as its back. */
function body(s: MrzSource, layout: SyntheticLayout, g: Geometry, r: Random, damage: SyntheticDamage): string {
	let out = `<text x="${mm(5)}" y="${mm(8)}" font-family="DejaVu Sans" font-weight="bold" font-size="${mm(3.6)}" fill="#1d3557">${esc(`${s.issuingState} · ${layout === 'TD3' ? 'PASSPORT' : layout.startsWith('MRV') ? 'VISA' : 'IDENTITY DOCUMENT'}`)}</text>`;
	if (layout === 'TD1') {
		out += label(4, 12, 'Address', `${int(r, 1, 99)} ${word(r)} ROAD, ${word(r)}`, 2.4) + label(4, 20, 'Height', `${int(r, 150, 199)} cm`, 2.4) + label(30, 20, 'Issued', printedDate(yymmdd(r, 2015, 2025)), 2.4);
	} else {
		const lx = g.wMm * 0.33;
		out += `<rect x="${mm(5)}" y="${mm(13)}" width="${mm(g.wMm * 0.24)}" height="${mm(g.hMm * 0.45)}" fill="#c9ced6" stroke="#9aa3ad"/>`;
		out += `<ellipse cx="${mm(5 + g.wMm * 0.12)}" cy="${mm(13 + g.hMm * 0.17)}" rx="${mm(g.wMm * 0.06)}" ry="${mm(g.hMm * 0.09)}" fill="#8c939c"/>`;
		out += label(lx, 13, 'Surname / Nom', s.lastName, 3) + label(lx, 21, 'Given names / Prénoms', s.firstName, 3) + label(lx, 29, 'Document No.', s.documentNumber, 3);
		out += label(lx, 37, 'Date of birth', printedDate(s.birthDate), 3) + label(lx + 30, 37, 'Sex', s.sex, 3) + label(lx, 45, 'Date of expiry', printedDate(s.expiryDate), 3);
	}
	const top = g.baselines[0];
	if (damage === 'guilloche' || damage === 'combined') {
		// Security print running under the MRZ too (the clean cards keep it to the upper part).
		for (let k = 0; k < 8; k++) {
			let d = `M0 ${mm(top - 6 + k * 1.6)}`;
			for (let x = 0; x <= mm(g.wMm); x += mm(1.5)) d += ` L${x} ${mm(top - 6 + k * 1.6) + Math.sin(x / mm(4) + k * 1.3) * mm(1.4)}`;
			out += `<path d="${d}" stroke="${pick(r, HUES)}" stroke-width="${(1.5 + r() * 1.5).toFixed(1)}" fill="none" opacity="0.55"/>`;
		}
	}
	if (damage === 'frontText' || damage === 'combined') {
		// Printed data right above the MRZ (cards print a date, code and number there).
		const text = `${printedDate(s.birthDate).replace(/\./g, '')} ${s.issuingState} ${s.documentNumber} ${word(r, 2, 3)}`;
		out += `<text x="${mm(g.x + r() * 3)}" y="${mm(top - 4.6 - r() * 0.8)}" font-family="DejaVu Sans" font-weight="bold" font-size="${mm(2.6)}" fill="#1b2430">${esc(text)}</text>`;
	}
	return out;
}

/** Marks drawn over the MRZ: a SPECIMEN overprint or an ink stamp. */
function overprint(g: Geometry, r: Random, damage: SyntheticDamage): string {
	const top = g.baselines[0];
	const bottom = g.baselines[g.baselines.length - 1];
	let out = '';
	if (damage === 'specimen' || damage === 'combined') {
		const x = g.x + r() * g.wMm * 0.3;
		const y = (top + bottom) / 2 + 3;
		const angle = (r() - 0.5) * 12;
		out += `<text x="${mm(x)}" y="${mm(y)}" font-family="DejaVu Sans" font-weight="bold" font-size="${mm(8 + r() * 3)}" fill="#c0392b" opacity="${(0.3 + r() * 0.2).toFixed(2)}" transform="rotate(${angle.toFixed(1)} ${mm(x)} ${mm(y)})">SPECIMEN</text>`;
	}
	if (damage === 'stamp') {
		const cx = g.x + 10 + r() * (g.wMm - 30);
		const cy = (top + bottom) / 2 - 1;
		const ink = pick(r, ['#3a3f9f', '#7a2f8f', '#2f6f4f']);
		out += `<g opacity="${(0.45 + r() * 0.2).toFixed(2)}" transform="rotate(${((r() - 0.5) * 40).toFixed(1)} ${mm(cx)} ${mm(cy)})"><circle cx="${mm(cx)}" cy="${mm(cy)}" r="${mm(9)}" stroke="${ink}" stroke-width="${mm(0.7)}" fill="none"/><circle cx="${mm(cx)}" cy="${mm(cy)}" r="${mm(6.5)}" stroke="${ink}" stroke-width="${mm(0.3)}" fill="none"/><text x="${mm(cx)}" y="${mm(cy + 1)}" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="${mm(2.6)}" fill="${ink}">ENTRY ${int(r, 10, 28)}</text></g>`;
	}
	return out;
}

async function decodeRaw(bytes: Buffer): Promise<Raster> {
	const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
	return { width: info.width, height: info.height, channels: 3, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/** Phone-photo noise: a lower resolution, a colour cast and sensor noise. */
function phoneNoise(src: Raster, r: Random, sigma: number): Raster {
	const out = new Uint8Array(src.data.length);
	const cast = [r() * 16 - 8, r() * 16 - 8, r() * 16 - 8];
	const gain = 0.8 + r() * 0.25;
	for (let i = 0; i < src.data.length; i++) {
		// Box–Muller from the seeded generator.
		const n = Math.sqrt(-2 * Math.log(Math.max(1e-9, r()))) * Math.cos(2 * Math.PI * r());
		out[i] = Math.max(0, Math.min(255, Math.round(src.data[i] * gain + cast[i % src.channels] + n * sigma)));
	}
	return { ...src, data: out };
}

async function scale(src: Raster, factor: number): Promise<Raster> {
	const png = await toPng(src);
	return decodeRaw(await sharp(png).resize(Math.round(src.width * factor)).png({ compressionLevel: 1 }).toBuffer());
}

/**
 * Stores `src` as a phone would with EXIF orientation `o` (2–8): the pixels turned the other way,
 * so that a viewer applying the tag shows the document as it was.
 */
export async function withOrientation(src: Raster, o: number, quality = 85): Promise<Buffer> {
	let img = sharp(await toPng(src));
	const step = async (f: (s: Sharp) => Sharp) => (img = sharp(await f(img).png({ compressionLevel: 1 }).toBuffer()));
	// Inverse of each orientation's display transform.
	if (o === 2) await step((s) => s.flop());
	if (o === 3) await step((s) => s.rotate(180));
	if (o === 4) await step((s) => s.flip());
	if (o === 5) await step((s) => s.rotate(90)).then(() => step((s) => s.flop()));
	if (o === 6) await step((s) => s.rotate(270));
	if (o === 7) await step((s) => s.rotate(270)).then(() => step((s) => s.flop()));
	if (o === 8) await step((s) => s.rotate(90));
	return img.jpeg({ quality }).withMetadata({ orientation: o }).toBuffer();
}

async function damaged(svg: string, damage: SyntheticDamage, r: Random): Promise<Buffer> {
	const clean = await sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toBuffer();
	if (damage === 'clean' || damage === 'guilloche' || damage === 'specimen' || damage === 'stamp' || damage === 'frontText') return sharp(clean).jpeg({ quality: 90 }).toBuffer();
	let img = await decodeRaw(clean);
	switch (damage) {
		case 'perspective':
			return toPng(perspective(rotate(img, (r() - 0.5) * 8), 0.06 + r() * 0.04, r));
		case 'blur':
			return toPng(blur(img, int(r, 1, 2)));
		case 'glare':
			return toPng(glare(img, 0.18 + r() * 0.1, r));
		case 'jpeg':
			return toJpeg(await scale(img, 0.8), int(r, 25, 45));
		case 'exif':
			return withOrientation(img, int(r, 2, 8));
		case 'noise':
			return toJpeg(phoneNoise(await scale(img, 0.65 + r() * 0.15), r, 6 + r() * 6), 80);
		case 'combined': {
			img = perspective(rotate(img, (r() - 0.5) * 8), 0.05, r);
			img = blur(img, 1);
			img = glare(img, 0.15, r);
			img = phoneNoise(await scale(img, 0.8), r, 5);
			return withOrientation(img, pick(r, [1, 3, 6, 8]), 50);
		}
	}
}

/** The `count` documents of `seed` (the same list for the same arguments). */
export function syntheticDocuments(count: number, seed = 1): SyntheticDocument[] {
	const docs: SyntheticDocument[] = [];
	for (let index = 0; index < count; index++) {
		const r = seededRandom(seed * 1_000_003 + index);
		const damage = SYNTHETIC_DAMAGES[index % SYNTHETIC_DAMAGES.length];
		const u = r();
		const layout: SyntheticLayout = u < 0.4 ? 'TD3' : u < 0.72 ? 'TD1' : u < 0.9 ? 'TD2' : u < 0.95 ? 'MRV-A' : 'MRV-B';
		const source = identity(r, layout);
		const mrz = buildMrz(layout, source);
		const drawSeed = Math.floor(r() * 2 ** 31);
		docs.push({
			index,
			layout,
			damage,
			source,
			mrz,
			render: async (retake = 0) => {
				const rr = seededRandom(drawSeed);
				const g = GEOMETRY[layout];
				const content = body(source, layout, g, rr, damage) + g.baselines.map((b, i) => mrzLine(mrz[i], g.x, b)).join('') + overprint(g, rr, damage);
				const svg = cardSvg({ wMm: g.wMm, hMm: g.hMm, body: content, tint: pick(rr, TINTS), guillochePhase: rr() * 6, guillocheHue: pick(rr, HUES) }, 0.05 + rr() * 0.05);
				return damaged(svg, damage, retake > 0 ? seededRandom(drawSeed + 7919 * retake) : rr);
			}
		});
	}
	return docs;
}
