import type { Point, Quad } from './raster.ts';
import type { TextBox } from './text-detection.ts';

export interface TextLine {
	/** Corners TL, TR, BR, BL in image coordinates, along the text direction. */
	quad: Quad;
	/** The line's own baseline angle (degrees, y down). */
	angle: number;
	/** Extent along the text (x0–x1) and across it (y0–y1), in the frame turned by `angle`. */
	x0: number;
	x1: number;
	y0: number;
	y1: number;
	/** Length along the text and height across it, in image pixels. */
	width: number;
	height: number;
	/** Position across the page's text direction (larger is lower on the page). */
	y: number;
	boxes: number;
}

const toFrame = (p: Point, cos: number, sin: number): Point => [p[0] * cos + p[1] * sin, -p[0] * sin + p[1] * cos];
const fromFrame = (p: Point, cos: number, sin: number): Point => [p[0] * cos - p[1] * sin, p[0] * sin + p[1] * cos];

function wrap(d: number): number {
	let x = d;
	while (x >= 90) x -= 180;
	while (x < -90) x += 180;
	return x;
}

/** Rebuilds a line's quad after its extent changed, with `pad` extra length at both ends. */
export function lineQuad(l: Pick<TextLine, 'angle' | 'x0' | 'x1' | 'y0' | 'y1'>, pad = 0): Quad {
	const r = (l.angle * Math.PI) / 180;
	const cos = Math.cos(r), sin = Math.sin(r);
	return [
		fromFrame([l.x0 - pad, l.y0], cos, sin),
		fromFrame([l.x1 + pad, l.y0], cos, sin),
		fromFrame([l.x1 + pad, l.y1], cos, sin),
		fromFrame([l.x0 - pad, l.y1], cos, sin)
	];
}

/**
 * Merges detected boxes that sit on one text line (MRZ lines with long filler runs often come in
 * pieces) into line quadrilaterals, ordered top to bottom. Boxes are grouped along the page skew;
 * each line then takes its own angle from its pieces, which follows perspective and page curl.
 */
export function groupTextLines(boxes: readonly TextBox[], skewDeg: number, options: { splitRows?: boolean } = {}): TextLine[] {
	const r = (skewDeg * Math.PI) / 180;
	const cos = Math.cos(r), sin = Math.sin(r);
	const items = boxes
		.map((b) => {
			const pts = b.quad.map((p) => toFrame(p, cos, sin));
			const ys = pts.map((p) => p[1]);
			return { box: b, y0: Math.min(...ys), y1: Math.max(...ys) };
		})
		.sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
	type Group = { y0: number; y1: number; members: TextBox[] };
	const groups: Group[] = [];
	for (const it of items) {
		const cy = (it.y0 + it.y1) / 2;
		const h = it.y1 - it.y0;
		const target = groups.find((g) => {
			const gh = g.y1 - g.y0;
			return Math.abs(cy - (g.y0 + g.y1) / 2) < 0.35 * Math.max(h, gh) && Math.min(h, gh) > 0.5 * Math.max(h, gh);
		});
		if (target) {
			const n = target.members.length;
			target.y0 = (target.y0 * n + it.y0) / (n + 1);
			target.y1 = (target.y1 * n + it.y1) / (n + 1);
			target.members.push(it.box);
		} else groups.push({ y0: it.y0, y1: it.y1, members: [it.box] });
	}
	// A line's small pieces (single chevrons of a filler run, boxed one by one: 7–19 px against the
	// line's 28) are too thin to join it above, and gather into a thin group of their own on the same
	// row, sometimes with a piece of the line itself. As a line it was read as garbage
	// (`DOSUR<BOVAQUYEE<<ZZZ`) and decoded with the lines above instead of the true line. A group
	// mostly of lone glyphs, thinner than a line whose band middle it shares, is part of that line
	// (the tallest such line). Only such a group: a whole piece of MRZ beside a line merged with an
	// overprint (a name line under SPECIMEN, 32 px against a merged box of 75) is a line of its own,
	// and reads better alone.
	const loneGlyph = (b: TextBox) => b.rect.width < 2 * b.rect.height;
	const height = (g: Group) => g.y1 - g.y0;
	const middle = (g: Group) => (g.y0 + g.y1) / 2;
	const hostOf = (g: Group) =>
		groups
			.filter((o) => o !== g && height(g) < height(o) && Math.abs(middle(g) - middle(o)) < 0.25 * height(o))
			.reduce<Group | null>((best, o) => (!best || height(o) > height(best) ? o : best), null);
	const along = (g: Group) => {
		const xs = g.members.flatMap((b) => b.quad.map((p) => toFrame(p, cos, sin)[0]));
		return [Math.min(...xs), Math.max(...xs)] as const;
	};
	const join = (g: Group, host: Group) => {
		host.members.push(...g.members);
		groups.splice(groups.indexOf(g), 1);
	};
	// First, a piece of a line beside it on the row, nearly as tall (≥ 0.6: not a box merged with an
	// overprint, twice a line's height), that the running average above left apart: a number line's
	// filler run and check digit, grouped with some of its chevrons, stood as a second line on the row,
	// and the line, read twice, was decoded as a TD1's second and third (seed 5151 #51). Before the
	// lone glyphs join: they lengthen the line over the piece's place.
	for (const g of [...groups].sort((a, b) => height(a) - height(b))) {
		const host = hostOf(g);
		if (!host || height(g) < 0.6 * height(host)) continue;
		const [a0, a1] = along(g);
		const [b0, b1] = along(host);
		if (a0 < b1 && b0 < a1) continue;
		join(g, host);
	}
	for (const g of [...groups]) {
		if (2 * g.members.filter(loneGlyph).length <= g.members.length) continue;
		const host = hostOf(g);
		if (host) join(g, host);
	}
	return groups
		.flatMap((g) => (options.splitRows ? apart(g, cos, sin) : [g]))
		.map((g) => {
			let sum = 0, weight = 0;
			for (const b of g.members) {
				const d = wrap(b.rect.angle - skewDeg);
				if (Math.abs(d) > 10 || b.rect.width < 2 * b.rect.height) continue;
				sum += d * b.rect.width;
				weight += b.rect.width;
			}
			const angle = skewDeg + (weight ? sum / weight : 0);
			const ra = (angle * Math.PI) / 180;
			const c = Math.cos(ra), s = Math.sin(ra);
			let x0 = Infinity, x1 = -Infinity, y0 = 0, y1 = 0, length = 0;
			const framed = g.members.map((b) => b.quad.map((p) => toFrame(p, c, s)));
			const heightOf = (pts: readonly (readonly number[])[]) => Math.max(...pts.map((p) => p[1])) - Math.min(...pts.map((p) => p[1]));
			const lengthOf = (pts: readonly (readonly number[])[]) => Math.max(...pts.map((p) => p[0])) - Math.min(...pts.map((p) => p[0]));
			// The longest piece's height is the line's: an overprint's letter crossing it can stand taller.
			const longest = framed.reduce((a, b) => (lengthOf(b) > lengthOf(a) ? b : a));
			const reference = heightOf(longest);
			for (const pts of framed) {
				const xs = pts.map((p) => p[0]);
				const ys = pts.map((p) => p[1]);
				x0 = Math.min(x0, ...xs);
				x1 = Math.max(x1, ...xs);
				// A piece under 0.6 of the longest one's height (a lone chevron) lengthens the line but does not set its height.
				if (heightOf(pts) < 0.6 * reference) continue;
				// Average the pieces' top and bottom rather than taking their union, which tilt inflates;
				// weighted by their length: a short piece of an MRZ line is often a run of fillers, which
				// OCR-B draws lower than capitals and whose box is thin. Counted as much as the piece of
				// capitals, it narrowed the crop until the recogniser saw glyphs cut at top and bottom.
				const len = Math.max(...xs) - Math.min(...xs);
				y0 += Math.min(...ys) * len;
				y1 += Math.max(...ys) * len;
				length += len;
			}
			y0 /= length || 1;
			y1 /= length || 1;
			// A little extra at both ends: the detector's box can clip the first or last glyph.
			const pad = 0.25 * (y1 - y0);
			const line = { angle, x0: x0 - pad, x1: x1 + pad, y0, y1 };
			return { ...line, quad: lineQuad(line), width: line.x1 - line.x0, height: y1 - y0, y: (g.y0 + g.y1) / 2, boxes: g.members.length };
		})
		.sort((a, b) => a.y - b.y);
}

/**
 * With `splitRows`, print on one row further apart than this many line heights is not one line: a
 * scan of a card's front and back side by side (Arg0s1080/mrz's Serbian identity card, 2026-12-01)
 * prints the front's dates level with the back's MRZ lines, ten heights to their left, and grouped
 * by row alone they were read as one line (`24072008IDSRB9555555461…`). Within a line the
 * detector's pieces stand a glyph or two apart, but an overprint merged into a box of its own
 * (excluded from the row by its height) leaves a wider hole, and the pieces either side, put together
 * again by oneLinePerRow, are cropped otherwise than the row was: on a `SPECIMEN` page (seed 1212
 * #223) the glyph votes that kept a misread number in doubt no longer did. So the reader splits rows
 * only when the page read as it is gave no reading that checks out (a check digit failing, a field
 * holding no valid value), and only where some row does split (mrz-reader.ts readAsGiven).
 */
const ROW_GAP_HEIGHTS = 8;

/** A row's boxes in runs along it, split where ROW_GAP_HEIGHTS of empty row lies between them. */
function apart<G extends { y0: number; y1: number; members: TextBox[] }>(g: G, cos: number, sin: number): G[] {
	if (g.members.length < 2) return [g];
	const gap = ROW_GAP_HEIGHTS * (g.y1 - g.y0);
	const spans = g.members
		.map((box) => {
			const xs = box.quad.map((p) => toFrame(p, cos, sin)[0]);
			return { box, x0: Math.min(...xs), x1: Math.max(...xs) };
		})
		.sort((a, b) => a.x0 - b.x0);
	const runs: TextBox[][] = [];
	let reach = -Infinity;
	for (const s of spans) {
		if (runs.length === 0 || s.x0 - reach > gap) runs.push([]);
		runs[runs.length - 1].push(s.box);
		reach = Math.max(reach, s.x1);
	}
	return runs.length === 1 ? [g] : runs.map((members) => ({ ...g, members }));
}

/**
 * MRZ lines are evenly spaced, about twice their height apart. Where two lines of a block stand
 * about two spacings apart with nothing between, the middle line was lost, most often merged with an
 * overprint across it (a `SPECIMEN` crossing a TD1 card's second line came out as one box three
 * times a line's height): a line is put where it must be, half way between, for the recogniser to
 * try. Lines `a` above and `b` below: 2.9–4.5 of their heights apart (one spacing is 1.7–2.2), or
 * 1.75–2.3 of the block's own spacing where it shows one (`blockPitch`).
 */
export function fillLineGaps(lines: readonly TextLine[]): TextLine[] {
	const out: TextLine[] = [];
	const pitch = blockPitch(lines);
	for (const [i, b] of lines.entries()) {
		const a = lines[i - 1];
		const h = a ? Math.max(a.height, b.height) : 0;
		const gap = a ? b.y - a.y : 0;
		const twoSpacings = (gap >= 2.9 * h && gap <= 4.5 * h) || (pitch !== null && gap >= 1.75 * pitch && gap <= 2.3 * pitch);
		if (a && twoSpacings && Math.abs(wrap(a.angle - b.angle)) < 3) {
			const angle = a.angle + wrap(b.angle - a.angle) / 2;
			const r = (angle * Math.PI) / 180;
			// Across the text, half way; along it, as far as either reaches (an overprint can cut one short).
			const framed = a.quad.map((p, k) => toFrame([(p[0] + b.quad[k][0]) / 2, (p[1] + b.quad[k][1]) / 2], Math.cos(r), Math.sin(r)));
			const along = [...a.quad, ...b.quad].map((p) => toFrame(p, Math.cos(r), Math.sin(r))[0]);
			const x0 = Math.min(...along), x1 = Math.max(...along);
			const y0 = Math.min(...framed.map((p) => p[1])), y1 = Math.max(...framed.map((p) => p[1]));
			out.push({ quad: lineQuad({ angle, x0, x1, y0, y1 }), angle, x0, x1, y0, y1, width: x1 - x0, height: y1 - y0, y: (a.y + b.y) / 2, boxes: 0 });
		}
		out.push(b);
	}
	return out;
}

/**
 * The block's last line lost in an overprint's box below it: one spacing under the bottom two lines
 * (one spacing apart) stands a box at least 1.5 times a line's height that covers where the next
 * line would be. There is no line below to put one between (`fillLineGaps`): generated seed 2468
 * #154, a `SPECIMEN` across a TD1 card's last line came out as one box 67 px high among 22-px lines,
 * and the card's front print above the MRZ was read as its first line. A line is put where the last
 * must stand, for the recogniser to try; `all` are the page's lines, the box among them.
 */
export function lineInBoxBelow(block: readonly TextLine[], all: readonly TextLine[]): TextLine[] {
	const [a, b] = block.slice(-2);
	if (!a || !b) return block.slice();
	const h = Math.max(a.height, b.height);
	const pitch = b.y - a.y;
	if (pitch < 1.3 * h || pitch > 2.5 * h || Math.abs(wrap(a.angle - b.angle)) >= 3) return block.slice();
	const y = b.y + pitch;
	const box = all.find((l) => l.height >= 1.5 * h && l.y - l.height / 2 <= y && l.y + l.height / 2 >= y && Math.abs(wrap(l.angle - b.angle)) < 5);
	if (!box) return block.slice();
	const line = { angle: b.angle, x0: Math.min(b.x0, box.x0), x1: Math.max(b.x1, box.x1), y0: b.y0 + pitch, y1: b.y1 + pitch };
	return [...block, { ...line, quad: lineQuad(line), width: line.x1 - line.x0, height: line.y1 - line.y0, y, boxes: 0 }];
}

/**
 * The spacing of the block's lines where the page shows it: the lowest two lines one spacing apart
 * (1.3–2.5 of their heights; the MRZ is at the bottom). Heights alone misjudge two spacings when the
 * line above the gap is other print: a card's front text over a TD1 whose first line an overprint
 * swallowed into one tall box stood 74 px above the second line, 2.89 of its heights (short of 2.9)
 * and 1.9 of the 39-px spacing of the lines below it. Null when no two lines stand one spacing apart.
 */
function blockPitch(lines: readonly TextLine[]): number | null {
	for (let i = lines.length - 1; i > 0; i--) {
		const a = lines[i - 1], b = lines[i];
		const h = Math.max(a.height, b.height);
		if (b.y - a.y >= 1.3 * h && b.y - a.y <= 2.5 * h && Math.abs(wrap(a.angle - b.angle)) < 3) return b.y - a.y;
	}
	return null;
}

/**
 * One line per row: two lines whose middles lie within a third of the taller's height are one row of
 * print, and an MRZ never prints a row twice. Left as two, the row was read twice and decoded as two
 * lines of a block, whose check digits can still pass (a TD1's number line read again as its first
 * line passed). The taller line is kept, lengthened over the other. `lines` top to bottom.
 */
export function oneLinePerRow(lines: readonly TextLine[]): TextLine[] {
	const out: TextLine[] = [];
	for (const l of lines) {
		const prev = out.at(-1);
		if (!prev || Math.abs(l.y - prev.y) >= Math.max(prev.height, l.height) / 3) {
			out.push(l);
			continue;
		}
		const [keep, other] = l.height > prev.height ? [l, prev] : [prev, l];
		const r = (keep.angle * Math.PI) / 180;
		const along = other.quad.map((p) => toFrame(p, Math.cos(r), Math.sin(r))[0]);
		const x0 = Math.min(keep.x0, ...along), x1 = Math.max(keep.x1, ...along);
		const next = { ...keep, x0, x1, width: x1 - x0, boxes: keep.boxes + other.boxes };
		out[out.length - 1] = { ...next, quad: lineQuad(next) };
	}
	return out;
}

/**
 * Lines of an MRZ block start and end together; the detector often misses a trailing filler run.
 * Extends each line to the reach of its neighbours (lines less than 2.5 heights apart).
 */
export function alignBlock(lines: readonly TextLine[]): TextLine[] {
	return lines.map((l, i) => {
		let { x0, x1 } = l;
		const r = (l.angle * Math.PI) / 180;
		const cos = Math.cos(r), sin = Math.sin(r);
		for (const j of [i - 1, i + 1]) {
			const n = lines[j];
			if (!n || Math.abs(n.y - l.y) > 2.5 * Math.max(l.height, n.height)) continue;
			for (const p of n.quad) {
				const [x] = toFrame(p, cos, sin);
				x0 = Math.min(x0, x);
				x1 = Math.max(x1, x);
			}
		}
		if (x0 === l.x0 && x1 === l.x1) return l;
		const next = { ...l, x0, x1, width: x1 - x0 };
		return { ...next, quad: lineQuad(next) };
	});
}

/**
 * A line from its quad (corners TL, TR, BR, BL along the text): its angle from the top edge, its
 * extent in the frame turned by it. `y` is the middle across the text in that frame.
 */
export function lineOfQuad(quad: Quad): TextLine {
	const angle = (Math.atan2(quad[1][1] - quad[0][1], quad[1][0] - quad[0][0]) * 180) / Math.PI;
	const r = (angle * Math.PI) / 180;
	const pts = quad.map((p) => toFrame(p, Math.cos(r), Math.sin(r)));
	const x0 = Math.min(pts[0][0], pts[3][0]), x1 = Math.max(pts[1][0], pts[2][0]);
	const y0 = Math.min(pts[0][1], pts[1][1]), y1 = Math.max(pts[2][1], pts[3][1]);
	return { quad, angle, x0, x1, y0, y1, width: x1 - x0, height: y1 - y0, y: (y0 + y1) / 2, boxes: 0 };
}

/**
 * The block's lines cut to start where the last of them starts, as the lines the page's text was
 * found in (`found`) start in their rows. An MRZ line begins with its document code, never with a
 * filler, so the detector finds each line's left end; a line of the block that starts further left
 * took in print beside the MRZ in its row: a card's front scanned beside its back, whose last words
 * or signature stand level with the back's lines. A line of the block with no found line in its row
 * (a line seated where one must be) is cut with the others, as is one that `starts` (per line of
 * the block; all when not given) says is no MRZ line whose start counts (a line of other print below
 * the block). Null when the found lines start within START_APART_HEIGHTS of each other, or fewer
 * than two are found.
 */
export function startTogether(block: readonly TextLine[], found: readonly TextLine[], starts?: readonly boolean[]): TextLine[] | null {
	if (block.length < 2) return null;
	const frame = (l: TextLine) => {
		const r = (l.angle * Math.PI) / 180;
		return [Math.cos(r), Math.sin(r)] as const;
	};
	// The found line in each block line's row: its middle within half a line height of the row's.
	const rows = block.map((l, i) => {
		if (starts && !starts[i]) return undefined;
		const [cos, sin] = frame(l);
		const mid = (l.y0 + l.y1) / 2;
		return found.find((n) => {
			const y = n.quad.reduce((sum, p) => sum + toFrame(p, cos, sin)[1], 0) / 4;
			return Math.abs(y - mid) <= Math.max(l.height, n.height) / 2;
		});
	});
	const starting = rows.filter((n): n is TextLine => n !== undefined);
	if (starting.length < 2) return null;
	const height = Math.max(...starting.map((l) => l.height));
	const cut = block.map((l) => {
		const [cos, sin] = frame(l);
		// Each found line's own start in this line's frame.
		const at = starting.map((n) => Math.min(...[n.quad[0], n.quad[3]].map((p) => toFrame(p, cos, sin)[0])));
		const last = Math.max(...at);
		// From the first of the starts that lie together at the right: a line boxed a pixel or two
		// later than its fellows keeps its first glyph whole.
		return { l, first: Math.min(...at), from: Math.min(...at.filter((x) => x >= last - START_APART_HEIGHTS * height)) };
	});
	if (cut[0].from - cut[0].first < START_APART_HEIGHTS * height) return null;
	return cut.map(({ l, from }) => {
		// A margin of a quarter of the line's height before its first glyph, as the detector's boxes
		// leave: a crop that starts on the glyph's edge lost the first glyphs of a name line.
		const x0 = Math.max(l.x0, from - CUT_MARGIN_HEIGHTS * l.height);
		if (x0 >= l.x1 - l.height) return l;
		const next = { ...l, x0, width: l.x1 - x0 };
		return { ...next, quad: lineQuad(next) };
	});
}

/**
 * Starts further apart than this many line heights are print beside the block, not the detector's
 * error of a glyph's width (a glyph is about 0.7 of a line height wide).
 */
const START_APART_HEIGHTS = 1.5;
const CUT_MARGIN_HEIGHTS = 0.25;

/**
 * The lines of an MRZ block seated on one clean line of it (`anchor`): MRZ lines are evenly spaced
 * and start and end together, so where the detector lost a line (an overprint crossing it merged it
 * with the print into one box twice a line's height, or took it away altogether) its place is still
 * known. `above` and `below` lines each side, one pitch apart (1.9 heights: MRZ lines stand 1.7–2.2
 * of their height apart), each a little taller than the anchor (`grow`) for the pitch's error.
 */
export function linesAround(anchor: TextLine, above: number, below: number, { pitch = 1.9, grow = 1.2 } = {}): TextLine[] {
	const step = pitch * anchor.height;
	const half = (grow * anchor.height) / 2;
	const mid = (anchor.y0 + anchor.y1) / 2;
	const out: TextLine[] = [];
	for (let k = -above; k <= below; k++) {
		if (k === 0) {
			out.push(anchor);
			continue;
		}
		const l = { angle: anchor.angle, x0: anchor.x0, x1: anchor.x1, y0: mid + k * step - half, y1: mid + k * step + half };
		out.push({ ...l, quad: lineQuad(l), width: l.x1 - l.x0, height: l.y1 - l.y0, y: anchor.y + k * step, boxes: 0 });
	}
	return out;
}

/** The same line seen upside down: corners turned by 180° (for documents held the wrong way up). */
export function flipQuad(q: Quad): Quad {
	return [q[2], q[3], q[0], q[1]];
}
