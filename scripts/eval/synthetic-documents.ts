/**
 * A generated evaluation set of identity documents the reader has never seen: random valid
 * identities (long names, fillers, 0/O 1/I 8/B look-alikes) in TD1, TD2, TD3 and MRV layouts, drawn
 * with the fixtures' own SVG pieces (scripts/fixtures/document-svg.ts, MRZ in OCR-B from Debian's
 * fonts-ocr-b), each under one named damage. Deterministic from a seed: document i of seed s is
 * always the same bytes (for one libvips version).
 *
 * Damage i % DAMAGES.length goes to document i, so any prefix (--limit) is balanced over damages.
 *
 * The visual zone (surname, given names, document number, dates under captions in English, French,
 * German or Spanish) is drawn from a stream of its own, so adding it changed no MRZ or damage: names
 * printed with diacritics the MRZ transliterates (É → E, Ä → AE or A, Ø → OE…), dates in several
 * formats (12.01.1990, 12 JAN 1990, 12 JAN/JAN 90, 12/01/90, 1990-01-12…). About a quarter of the
 * passports, visas and TD2 cards are **tampered**: one printed field differs from the MRZ (a letter
 * or digit changed — never into its look-alike, which no reader can tell —, or a date moved).
 */
import sharp, { type Sharp } from 'sharp';
import { states } from 'mrz';
import { buildMrz, type MrzSource } from '../../src/lib/documents/mrz-build.ts';
import { crop, quarterTurn, type Raster } from '../../src/lib/documents/raster.ts';
import { cardSvg, esc, guilloche, label, mm, mrzLine, printedDate, type Card } from '../fixtures/document-svg.ts';
import { bend, blur, glare, glareAt, hologramAt, lowLight, motionBlur, perspective, rotate, seededRandom, shadowAt, thumbAt, toJpeg, toPng } from './camera-damage.ts';

export type SyntheticLayout = 'TD1' | 'TD2' | 'TD3' | 'MRV-A' | 'MRV-B';
export const SYNTHETIC_DAMAGES = ['clean', 'guilloche', 'specimen', 'stamp', 'frontText', 'perspective', 'blur', 'glare', 'jpeg', 'exif', 'noise', 'combined', 'facingPage'] as const;
/**
 * Damages outside the rotation (so that adding one changed no seed's documents): given to every
 * document of a run by `choices.damage` (documents-synthetic.ts `--as`). `small`: the page as a web
 * page or a messenger shows it, MRZ glyphs 4.5–8 px tall (the real specimens' smallest: a 272-px
 * passport), JPEG 70–90. `glareMrz`: a glare blob centred on the MRZ itself (the rotation's `glare`
 * is drawn anywhere on the page and mostly misses the MRZ), up to 0.7–0.92 of the way to white at
 * its centre, then JPEG 85: a lamp or a window reflected in a card's laminate right where it is read.
 * `thumb`: the fingertip that holds the document, opaque and in one of six skin tones, over the MRZ
 * from the left, the right or below: 3–30 % of the lines' length from a side, or part of the last
 * line (or two) from below; then noise and JPEG 85. `cutEdge`: the photo framed too tight, cutting
 * 2–15 % of the lines' length from one end, or the last line through its glyphs (20–80 % of their
 * height kept); then JPEG 88. Neither can be read whole: they ask whether the reader refuses what
 * it cannot see rather than filling it in (a name cut short is no check digit's business).
 * `bent`: a page that is not flat, through a lens that is not either (camera-damage.ts `bend`): the
 * page bulging towards the camera or away from it by 1.5–5 % across its lines, so the MRZ lines,
 * far from the middle, arc 0.3–0.9 of a glyph's height off straight; a lens's barrel distortion of
 * up to 4 % at the corners on top; then noise and JPEG 85. The rotation's damages are all flat.
 * `turned`: the document held sideways or upside down in the photo itself, with no EXIF orientation
 * to say so (a camera frame carries none: a passport held sideways to fill a phone's upright
 * screen), a quarter, half or three-quarter turn and up to 4° more either way; then noise and JPEG
 * 85. The rotation's `exif` damage turns the pixels too, but tags them, so the page comes upright.
 * `shadow`: a hard shadow (the phone's, the hand's) whose edge crosses the MRZ lines at 20–80 % of
 * their length, 25–80° off the horizontal, darkening its side to 35–65 % of the light, the edge
 * 2–20 px soft; then noise and JPEG 85. Glare is the rotation's; nothing there darkens part of a line.
 * `motion`: the phone moved during the exposure (camera-damage.ts `motionBlur`): smeared 3–12 px
 * (0.12–0.5 of a glyph's height) in any direction; then noise and JPEG 85. The rotation's `blur` is
 * round and even; a hand's shake merges strokes along one direction only.
 * `lowLight`: a dim room (`lowLight`): 20–40 % of the light, warm, neutral or fluorescent, the sensor's
 * noise (σ 2.5–5 levels) gained up with the page until the paper is bright again (ink and paper
 * 150–200 levels apart under grain of σ 4–22), the frame 0.7–0.85 of its size, JPEG 75.
 * `hologram`: a card's holographic laminate catching the light (`hologramAt`): a soft patch 25–50 % of
 * the card's width, over the MRZ in half the pages, of fine rainbow bands 6–14 px apart laid over the
 * print at up to 35–60 %; then noise and JPEG 85. Ink under it turns coloured and pale, its colour
 * changing along the line.
 */
export const EXTRA_DAMAGES = ['small', 'glareMrz', 'thumb', 'cutEdge', 'bent', 'turned', 'shadow', 'motion', 'lowLight', 'hologram'] as const;
export type SyntheticDamage = (typeof SYNTHETIC_DAMAGES)[number] | (typeof EXTRA_DAMAGES)[number];

export interface SyntheticDocument {
	index: number;
	layout: SyntheticLayout;
	damage: SyntheticDamage;
	source: MrzSource;
	mrz: string[];
	/** What the visual zone prints; `tampered`: the one field printed unlike the MRZ, if any. */
	viz: SyntheticViz;
	/**
	 * The damaged photo (PNG or JPEG bytes, possibly with an EXIF orientation); `retake` > 0: the
	 * same printed document photographed again (held differently, new camera damage, same print).
	 */
	render(retake?: number): Promise<Buffer>;
}

export type VizFieldName = 'lastName' | 'firstName' | 'documentNumber' | 'dateOfBirth' | 'expiryDate';

export interface SyntheticViz {
	lastName: string;
	firstName: string;
	documentNumber: string;
	dateOfBirth: string;
	expiryDate: string;
	tampered: VizFieldName | null;
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


/** Diacritics a printed name may carry where the MRZ has the bare letter (9303: É → E, Ä → A or AE). */
const MARKED: Readonly<Record<string, readonly string[]>> = { A: ['Á', 'À', 'Â', 'Ä', 'Å'], E: ['É', 'È', 'Ê', 'Ë'], I: ['Í', 'Ï'], O: ['Ó', 'Ô', 'Ö', 'Ø'], U: ['Ú', 'Ü'], C: ['Ç', 'Č'], N: ['Ñ'], S: ['Š', 'Ş'], Z: ['Ž'] };
/** Pairs the MRZ writes for one marked letter (9303: Ä → AE, Ö/Ø → OE, Ü → UE, Å → AA). */
const DIGRAPHS: Readonly<Record<string, readonly string[]>> = { AE: ['Ä', 'Æ'], OE: ['Ö', 'Ø'], UE: ['Ü'], AA: ['Å'] };

/** The MRZ name as printed: some letters with the diacritics the MRZ drops or spells out. */
function printedName(mrzName: string, r: Random): string {
	if (r() < 0.6) return mrzName;
	let out = '';
	for (let i = 0; i < mrzName.length; i++) {
		const pair = mrzName.slice(i, i + 2);
		if (DIGRAPHS[pair] && r() < 0.6) {
			out += pick(r, DIGRAPHS[pair]);
			i++;
		} else out += MARKED[mrzName[i]] && r() < 0.08 ? pick(r, MARKED[mrzName[i]]) : mrzName[i];
	}
	return out;
}

const MONTHS_EN = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const MONTHS_FR = ['JAN', 'FÉV', 'MARS', 'AVR', 'MAI', 'JUIN', 'JUIL', 'AOÛT', 'SEPT', 'OCT', 'NOV', 'DÉC'];
const DATE_FORMATS = ['DD.MM.YYYY', 'DD MMM YYYY', 'DD MMM/MMM YY', 'DD/MM/YY', 'DD-MM-YYYY', 'YYYY-MM-DD', 'DD MM YYYY', 'DD/MM/YYYY'] as const;

/** `YYMMDD` printed in one of the visual zone's formats (the century as the MRZ reader resolves it). */
export function formatDate(yymmdd: string, format: (typeof DATE_FORMATS)[number], century: number): string {
	const yy = yymmdd.slice(0, 2), mm = yymmdd.slice(2, 4), dd = yymmdd.slice(4, 6);
	const yyyy = `${century}${yy}`;
	const m = Number(mm) - 1;
	switch (format) {
		case 'DD.MM.YYYY': return `${dd}.${mm}.${yyyy}`;
		case 'DD MMM YYYY': return `${dd} ${MONTHS_EN[m]} ${yyyy}`;
		case 'DD MMM/MMM YY': return `${dd} ${MONTHS_FR[m]}/${MONTHS_EN[m]} ${yy}`;
		case 'DD/MM/YY': return `${dd}/${mm}/${yy}`;
		case 'DD-MM-YYYY': return `${dd}-${mm}-${yyyy}`;
		case 'YYYY-MM-DD': return `${yyyy}-${mm}-${dd}`;
		case 'DD MM YYYY': return `${dd} ${mm} ${yyyy}`;
		case 'DD/MM/YYYY': return `${dd}/${mm}/${yyyy}`;
	}
}

const CAPTION_SETS = [
	{ lastName: 'Surname / Nom', firstName: 'Given names / Prénoms', documentNumber: 'Document No. / No. du document', dateOfBirth: 'Date of birth / Date de naissance', expiryDate: 'Date of expiry / Date d\'expiration' },
	{ lastName: 'Name / Surname', firstName: 'Vornamen / Given names', documentNumber: 'Passnummer / Passport No.', dateOfBirth: 'Geburtsdatum / Date of birth', expiryDate: 'Gültig bis / Date of expiry' },
	{ lastName: 'Apellidos / Surname', firstName: 'Nombres / Given names', documentNumber: 'Documento / Document No.', dateOfBirth: 'Fecha de nacimiento / Date of birth', expiryDate: 'Fecha de caducidad / Date of expiry' },
	{ lastName: 'Surname', firstName: 'Given names', documentNumber: 'Document No.', dateOfBirth: 'Date of birth', expiryDate: 'Date of expiry' }
] as const;

/** Look-alike groups: a tampered glyph never becomes one of its own group (no reader could tell). */
const TAMPER_GROUPS = ['O0DQ', 'I1L', 'B8', 'S5', 'Z2', 'G6', 'A4'];
function otherGlyph(ch: string, pool: string, r: Random): string {
	const group = TAMPER_GROUPS.find((g) => g.includes(ch)) ?? ch;
	const choices = [...pool].filter((c) => !group.includes(c));
	return pick(r, choices);
}

/** One changed glyph in `text` (letters stay letters, digits digits), never a space. */
function changeOne(text: string, r: Random): string {
	const at = [...text].map((c, i) => (c === ' ' ? -1 : i)).filter((i) => i >= 0);
	const i = pick(r, at);
	const pool = /[0-9]/.test(text[i]) ? '0123456789' : 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
	return text.slice(0, i) + otherGlyph(text[i], pool, r) + text.slice(i + 1);
}

/** A real date near `yymmdd` but not it (the day or the year moved). */
function movedDate(yymmdd: string, r: Random): string {
	const y = Number(yymmdd.slice(0, 2)), m = Number(yymmdd.slice(2, 4)), d = Number(yymmdd.slice(4, 6));
	const two = (n: number) => String(n).padStart(2, '0');
	if (r() < 0.5) return `${two((y + int(r, 1, 9)) % 100)}${two(m)}${two(Math.min(d, 28))}`;
	return `${two(y)}${two(m)}${two(d <= 14 ? d + int(r, 1, 13) : d - int(r, 1, 13))}`;
}

/** What the visual zone prints for `s` (its own random stream, so MRZ and damage draws stay as they were). */
function visualZone(s: MrzSource, layout: SyntheticLayout, r: Random, tamper?: VizFieldName | null): SyntheticViz & { format: (typeof DATE_FORMATS)[number]; captions: (typeof CAPTION_SETS)[number] } {
	const format = pick(r, DATE_FORMATS);
	const captions = pick(r, CAPTION_SETS);
	const century = (yy: string, role: 'birth' | 'expiry') => (role === 'expiry' ? 20 : Number(yy.slice(0, 2)) > 26 ? 19 : 20);
	const viz: SyntheticViz = {
		lastName: printedName(s.lastName, r),
		firstName: printedName(s.firstName, r),
		documentNumber: s.documentNumber,
		dateOfBirth: formatDate(s.birthDate, format, century(s.birthDate, 'birth')),
		expiryDate: formatDate(s.expiryDate, format, century(s.expiryDate, 'expiry')),
		tampered: null
	};
	// TD1 cards are drawn as their back (no names printed): never tampered.
	const coin = r() < 0.25;
	const drawn = pick(r, (['lastName', 'documentNumber', 'dateOfBirth', 'expiryDate', ...(s.firstName ? (['firstName'] as const) : [])] as const).slice());
	// A forced given name on a holder without one: nothing to alter.
	if (layout !== 'TD1' && (tamper === undefined ? coin : tamper !== null && (tamper !== 'firstName' || s.firstName !== ''))) {
		const field = tamper ?? drawn;
		viz.tampered = field;
		if (field === 'lastName') viz.lastName = changeOne(s.lastName, r);
		if (field === 'firstName') viz.firstName = changeOne(s.firstName, r);
		if (field === 'documentNumber') viz.documentNumber = changeOne(s.documentNumber, r);
		if (field === 'dateOfBirth') {
			const moved = movedDate(s.birthDate, r);
			viz.dateOfBirth = formatDate(moved, format, century(moved, 'birth'));
		}
		if (field === 'expiryDate') viz.expiryDate = formatDate(movedDate(s.expiryDate, r), format, 20);
	}
	return { ...viz, format, captions };
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
function body(s: MrzSource, layout: SyntheticLayout, g: Geometry, r: Random, damage: SyntheticDamage, viz: ReturnType<typeof visualZone>, portrait?: SyntheticPortrait): string {
	let out = `<text x="${mm(5)}" y="${mm(8)}" font-family="DejaVu Sans" font-weight="bold" font-size="${mm(3.6)}" fill="#1d3557">${esc(`${s.issuingState} · ${layout === 'TD3' ? 'PASSPORT' : layout.startsWith('MRV') ? 'VISA' : 'IDENTITY DOCUMENT'}`)}</text>`;
	if (layout === 'TD1') {
		out += label(4, 12, 'Address', `${int(r, 1, 99)} ${word(r)} ROAD, ${word(r)}`, 2.4) + label(4, 20, 'Height', `${int(r, 150, 199)} cm`, 2.4) + label(30, 20, 'Issued', printedDate(yymmdd(r, 2015, 2025)), 2.4);
	} else {
		const lx = g.wMm * 0.33;
		out += portrait ? portraitSvg(portrait, g) : `<rect x="${mm(5)}" y="${mm(13)}" width="${mm(g.wMm * 0.24)}" height="${mm(g.hMm * 0.45)}" fill="#c9ced6" stroke="#9aa3ad"/><ellipse cx="${mm(5 + g.wMm * 0.12)}" cy="${mm(13 + g.hMm * 0.17)}" rx="${mm(g.wMm * 0.06)}" ry="${mm(g.hMm * 0.09)}" fill="#8c939c"/>`;
		const c = viz.captions;
		out += label(lx, 13, c.lastName, viz.lastName, 3) + label(lx, 21, c.firstName, viz.firstName, 3) + label(lx, 29, c.documentNumber, viz.documentNumber, 3);
		out += label(lx, 37, c.dateOfBirth, viz.dateOfBirth, 3) + label(lx + 38, 37, 'Sex', s.sex, 3) + label(lx, 45, c.expiryDate, viz.expiryDate, 3);
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

/**
 * A real photo in the portrait's place (document-portraits.ts): printed in colour, or engraved in
 * grey as polycarbonate cards and passport data pages are, with fine security lines running over
 * it. Draws nothing from the random stream, so a seed's documents are the same with or without it.
 */
function portraitSvg(portrait: SyntheticPortrait, g: Geometry): string {
	const x = mm(5), y = mm(13), w = mm(g.wMm * 0.24), h = mm(g.hMm * 0.45);
	const grey = portrait.style !== 'colour';
	// Grey at a quarter more contrast; `darkLaser` applies it to linear light, which sinks the
	// mid-tones and keeps the highlights, as a deep engraving does (document-portraits.ts, clean
	// pages: the portrait face's mean grey 111 against 126 engraved lightly, 116 in colour).
	const space = portrait.style === 'darkLaser' ? 'linearRGB' : 'sRGB';
	const ramp = 'type="linear" slope="1.25" intercept="-0.08"';
	let out = grey
		? `<filter id="laser" color-interpolation-filters="${space}"><feColorMatrix type="saturate" values="0"/><feComponentTransfer><feFuncR ${ramp}/><feFuncG ${ramp}/><feFuncB ${ramp}/></feComponentTransfer></filter>`
		: '';
	out += `<clipPath id="portrait"><rect x="${x}" y="${y}" width="${w}" height="${h}"/></clipPath>`;
	out += `<image x="${x}" y="${y}" width="${w}" height="${h}" preserveAspectRatio="xMidYMid slice" clip-path="url(#portrait)" href="${portrait.href}"${grey ? ' filter="url(#laser)"' : ''}/>`;
	if (grey) {
		for (let k = 0; k < 14; k++) {
			let d = `M${x} ${y + (k * h) / 13}`;
			for (let px = 0; px <= w; px += mm(1)) d += ` L${x + px} ${y + (k * h) / 13 + Math.sin(px / mm(3) + k) * mm(1.2)}`;
			out += `<path d="${d}" stroke="#6d7f96" stroke-width="1" fill="none" opacity="0.45" clip-path="url(#portrait)"/>`;
		}
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

/**
 * A second photo of the same print: the phone held a little differently (turned up to 3°, 0.8–1×
 * as near), another light's cast and the sensor's noise. Until 2026-11-29 a retake of the six
 * print-only damages was the first photo's very bytes, and of the others the same framing: the
 * reader, being deterministic, read it the same, so "passed on a retake" measured nothing there.
 */
async function heldAgain(img: Raster, r: Random): Promise<Raster> {
	return phoneNoise(await scale(rotate(img, (r() - 0.5) * 6), 0.8 + r() * 0.2), r, 2 + r() * 3);
}

const PRINT_ONLY: readonly SyntheticDamage[] = ['clean', 'guilloche', 'specimen', 'stamp', 'frontText', 'facingPage'];

/**
 * Where the MRZ lies on the unturned page, in px: its middle, its width, its first line's cap top and
 * its last baseline; and the card (data page) the MRZ is printed on.
 */
interface MrzPlace {
	cx: number;
	cy: number;
	width: number;
	top: number;
	bottom: number;
	card: { x0: number; y0: number; x1: number; y1: number };
}

const SKIN_TONES: readonly (readonly [number, number, number])[] = [
	[241, 204, 178],
	[224, 172, 140],
	[198, 144, 106],
	[160, 108, 74],
	[118, 78, 52],
	[84, 56, 40]
];

async function damaged(svg: string, damage: SyntheticDamage, r: Random, retake: boolean, mrzAt: MrzPlace): Promise<Buffer> {
	const clean = await sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toBuffer();
	if (!retake && PRINT_ONLY.includes(damage)) return sharp(clean).jpeg({ quality: 90 }).toBuffer();
	let img = await decodeRaw(clean);
	if (retake) {
		img = await heldAgain(img, r);
		if (PRINT_ONLY.includes(damage)) return toJpeg(img, 88);
	}
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
		case 'glareMrz': {
			const along = mrzAt.cx + (r() - 0.5) * 0.6 * mrzAt.width;
			const across = mrzAt.cy + (r() - 0.5) * mm(6);
			return toJpeg(glareAt(img, 0.12 + r() * 0.1, along, across, 0.7 + r() * 0.22), 85);
		}
		case 'thumb': {
			const side = pick(r, ['left', 'right', 'below'] as const);
			const left = mrzAt.cx - mrzAt.width / 2;
			const tone = pick(r, SKIN_TONES);
			if (side === 'below') {
				const rx = mm(8 + r() * 3), ry = mm(14 + r() * 6);
				// From just under the last baseline to a line and a half above it.
				const reach = mm(1 + r() * 5);
				img = thumbAt(img, left + (0.1 + 0.8 * r()) * mrzAt.width, mrzAt.bottom + ry - reach, rx, ry, tone, -1);
			} else {
				const rx = mm(14 + r() * 6), ry = mm(7 + r() * 3);
				const cover = (0.03 + r() * 0.27) * mrzAt.width;
				const cx = side === 'left' ? left + cover - rx : left + mrzAt.width - cover + rx;
				img = thumbAt(img, cx, mrzAt.cy + (r() - 0.5) * (mrzAt.bottom - mrzAt.top), rx, ry, tone, side === 'left' ? 1 : -1);
			}
			return toJpeg(phoneNoise(img, r, 3), 85);
		}
		case 'cutEdge': {
			const side = pick(r, ['left', 'right', 'bottom'] as const);
			const left = mrzAt.cx - mrzAt.width / 2;
			const cut = (0.02 + r() * 0.13) * mrzAt.width;
			// OCR-B capitals stand about 2.45 mm above the baseline.
			const cap = mm(2.45);
			// Whole pixels: raster.ts crop widens a fractional box to the pixels it touches.
			if (side === 'left') img = crop(img, Math.round(left + cut), 0, img.width, img.height);
			else if (side === 'right') img = crop(img, 0, 0, Math.round(left + mrzAt.width - cut), img.height);
			else img = crop(img, 0, 0, img.width, Math.round(mrzAt.bottom - cap + (0.2 + 0.6 * r()) * cap));
			return toJpeg(img, 88);
		}
		case 'bent': {
			const bow = (r() < 0.5 ? -1 : 1) * (0.015 + r() * 0.035);
			return toJpeg(phoneNoise(bend(img, bow, r() * 0.04), r, 3), 85);
		}
		case 'turned': {
			// Whole quarters by moving pixels, then the few degrees: the same pages whatever a build's rotateRaster does past 90°.
			const quarters = pick(r, [1, 2, 3] as const);
			for (let k = 0; k < quarters; k++) img = quarterTurn(img, false);
			return toJpeg(phoneNoise(rotate(img, (r() - 0.5) * 8), r, 3), 85);
		}
		case 'shadow': {
			const along = mrzAt.cx + (r() - 0.5) * 0.6 * mrzAt.width;
			const degrees = (r() < 0.5 ? -1 : 1) * (25 + r() * 55);
			return toJpeg(phoneNoise(shadowAt(img, along, mrzAt.cy, degrees, 0.35 + r() * 0.3, 2 + r() * 18), r, 3), 85);
		}
		case 'motion':
			return toJpeg(phoneNoise(motionBlur(img, 3 + r() * 9, r() * 180), r, 3), 85);
		case 'lowLight': {
			const light = 0.2 + r() * 0.2;
			const tint = pick(r, [
				[1, 0.82, 0.55],
				[1, 1, 1],
				[0.88, 1, 0.92]
			] as const);
			const dim = lowLight(img, light, tint, 2.5 + r() * 2.5, (0.7 + r() * 0.2) / light, r);
			return toJpeg(await scale(dim, 0.7 + r() * 0.15), 75);
		}
		case 'hologram': {
			const onMrz = r() < 0.5;
			const cx = onMrz ? mrzAt.cx + (r() - 0.5) * 0.6 * mrzAt.width : (0.2 + 0.6 * r()) * img.width;
			const cy = onMrz ? mrzAt.cy : (0.15 + 0.5 * r()) * img.height;
			const rx = (0.25 + r() * 0.25) * mrzAt.width;
			const holo = hologramAt(img, cx, cy, rx, rx * (0.5 + r() * 0.3), 6 + r() * 8, r() * 180, 0.35 + r() * 0.25, mrzAt.card);
			return toJpeg(phoneNoise(holo, r, 3), 85);
		}
		case 'small': {
			// OCR-B's capitals stand 0.7 of the 3.5-mm font size: about 24.5 px at PX 10.
			const glyph = 4.5 + r() * 3.5;
			return toJpeg(await scale(img, glyph / (0.7 * 3.5 * 10)), int(r, 70, 90));
		}
		case 'combined': {
			img = perspective(rotate(img, (r() - 0.5) * 8), 0.05, r);
			img = blur(img, 1);
			img = glare(img, 0.15, r);
			img = phoneNoise(await scale(img, 0.8), r, 5);
			return withOrientation(img, pick(r, [1, 3, 6, 8]), 50);
		}
	}
	throw new Error(`no camera damage for ${damage}`);
}

const FACING_WORDS = ['THE', 'BEARER', 'OF', 'THIS', 'PASSPORT', 'IS', 'REQUESTED', 'TO', 'ALLOW', 'PASS', 'FREELY', 'WITHOUT', 'LET', 'OR', 'HINDRANCE', 'AND', 'AFFORD', 'ASSISTANCE', 'PROTECTION', 'OBSERVATIONS', 'VALID', 'FOR', 'ALL', 'COUNTRIES'];

/**
 * The booklet open on its data page, photographed with the facing page above it; that page carries
 * lines of text printed vertically (long ones: they outweighed the MRZ in the old skew estimate).
 */
function openBookletSvg(card: Card, margin: number, r: Random): string {
	const w = mm(card.wMm), h = mm(card.hMm);
	const pad = Math.round(w * margin);
	const W = w + 2 * pad, H = 2 * h + 2 * pad;
	let facing = '';
	const lines = int(r, 9, 14);
	for (let k = 0; k < lines; k++) {
		const x = mm(8 + (k * (card.wMm - 16)) / lines);
		let text = '';
		const target = int(r, 45, 80);
		while (text.length * 1.9 < target) text += `${pick(r, FACING_WORDS)} `;
		// Bottom to top, as such pages print it.
		facing += `<text x="${x}" y="${mm(card.hMm - 4)}" font-family="DejaVu Sans" font-size="${mm(2.8)}" fill="#2a3140" transform="rotate(-90 ${x} ${mm(card.hMm - 4)})">${esc(text.trim())}</text>`;
	}
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
<rect width="${W}" height="${H}" fill="#2f3540"/>
<g transform="translate(${pad} ${pad})"><rect width="${w}" height="${h}" rx="${mm(2)}" fill="#f3f1ea"/>${guilloche(w, h, '#b7c2d0', 1.7, 10)}${facing}</g>
<g transform="translate(${pad} ${pad + h})"><rect width="${w}" height="${h}" rx="${mm(2)}" fill="${card.tint}"/>${guilloche(w, h * 0.72, card.guillocheHue ?? '#8aa1c0', card.guillochePhase ?? 0)}${card.body}</g>
</svg>`;
}

/** Choices a test may pin instead of drawing them (the rest is drawn as usual). */
export interface SyntheticChoices {
	damage?: SyntheticDamage;
	layout?: SyntheticLayout;
	/** The printed field made unlike the MRZ; null: none. */
	tampered?: VizFieldName | null;
	/** A photo for the portrait (data pages and visas; TD1 is drawn as its back and has none). */
	portrait?: SyntheticPortrait;
}

export interface SyntheticPortrait {
	/** The image, as a data: URL. */
	href: string;
	/** Printed in colour, or laser-engraved in grey under fine security lines (`darkLaser`: engraved deep, mid-tones sunk). */
	style: 'colour' | 'laser' | 'darkLaser';
}

/** The `count` documents of `seed` (the same list for the same arguments). */
export function syntheticDocuments(count: number, seed = 1, choices: SyntheticChoices = {}): SyntheticDocument[] {
	const docs: SyntheticDocument[] = [];
	for (let index = 0; index < count; index++) {
		const r = seededRandom(seed * 1_000_003 + index);
		const damage = choices.damage ?? SYNTHETIC_DAMAGES[index % SYNTHETIC_DAMAGES.length];
		const u = r();
		const layout: SyntheticLayout = choices.layout ?? (u < 0.4 ? 'TD3' : u < 0.72 ? 'TD1' : u < 0.9 ? 'TD2' : u < 0.95 ? 'MRV-A' : 'MRV-B');
		const source = identity(r, layout);
		const mrz = buildMrz(layout, source);
		const drawSeed = Math.floor(r() * 2 ** 31);
		// Its own stream: the visual zone changes nothing else of the document.
		const viz = visualZone(source, layout, seededRandom(drawSeed ^ 0x2545f491), choices.tampered);
		docs.push({
			index,
			layout,
			damage,
			source,
			mrz,
			viz: { lastName: viz.lastName, firstName: viz.firstName, documentNumber: viz.documentNumber, dateOfBirth: viz.dateOfBirth, expiryDate: viz.expiryDate, tampered: viz.tampered },
			render: async (retake = 0) => {
				const rr = seededRandom(drawSeed);
				const g = GEOMETRY[layout];
				const content = body(source, layout, g, rr, damage, viz, choices.portrait) + g.baselines.map((b, i) => mrzLine(mrz[i], g.x, b)).join('') + overprint(g, rr, damage);
				const card: Card = { wMm: g.wMm, hMm: g.hMm, body: content, tint: pick(rr, TINTS), guillochePhase: rr() * 6, guillocheHue: pick(rr, HUES) };
				const margin = 0.05 + rr() * 0.05;
				const svg = damage === 'facingPage' ? openBookletSvg(card, margin, seededRandom(drawSeed ^ 0x51f15e)) : cardSvg(card, margin);
				// As cardSvg and openBookletSvg place the card (the booklet's data page is the lower one).
				const pad = Math.round(mm(g.wMm) * margin);
				const top = pad + (damage === 'facingPage' ? mm(g.hMm) : 0);
				const mrzAt = { cx: pad + mm(g.x + (2.54 * mrz[0].length) / 2), cy: top + mm((g.baselines[0] + g.baselines[g.baselines.length - 1]) / 2 - 1.2), width: mm(2.54 * mrz[0].length), top: top + mm(g.baselines[0] - 2.45), bottom: top + mm(g.baselines[g.baselines.length - 1]), card: { x0: pad, y0: top, x1: pad + mm(g.wMm), y1: top + mm(g.hMm) } };
				return damaged(svg, damage, retake > 0 ? seededRandom(drawSeed + 7919 * retake) : rr, retake > 0, mrzAt);
			}
		});
	}
	return docs;
}
