// Whether a face's eyes or mouth are hidden: dark glasses, a mask. The embedding of such a face
// misses its owner (face-damage eval, 2026-11-29: a band of dark glass across the eyes, 4 of 10
// genuine pairs under the threshold; a surgical mask, 7 of 10; no stranger matched either), so a
// non-match with it says nothing about who the person is: the reference is unusable, the capture
// must be taken again without them.
//
// No model here knows glasses or masks; the landmark model places eyes and lips on them anyway. The
// face is its own yardstick: the skin the occluder leaves bare is measured against the places the
// features should be. An eye, however dark its iris, its lashes or its make-up, is framed by bright
// white and bare lid; a lens is dark all over. Lips and chin are skin-coloured or redder, and
// textured; a mask is a colour no skin has, or none, or a colour near skin's laid on more evenly than
// any skin is, over the lips as over the chin. Where the photo has no colour (grey, a photocopy) the
// mouth is not judged: a mask and a grey beard are then alike.
import type { Point, RgbaImage } from './image.ts';
import { meanPoint, point, type Landmarks68 } from './landmarks.ts';

export type HiddenFeature = 'eyes' | 'mouth';

export interface HiddenFeatures {
	/** Both eyes hidden (dark glasses). */
	eyes: boolean;
	/** Mouth and chin hidden (a mask). */
	mouth: boolean;
	/** Brightest part (85th percentile) of each eye's surroundings over the bare cheek's median grey (left, right); null where not measured. */
	eyeLight: [number, number] | null;
	/** Chroma distance of the lips and chin from the face's bare skin (ln R/G, ln B/G); null where the photo has no colour to tell. */
	mouthChroma: number | null;
}

/**
 * Both eyes whose brightest sixth (over about the eye's own width) is darker than this share of the
 * bare cheek's median are behind dark lenses. Measured 2026-11-29 on 47 faces of 19 photos (the
 * fixtures and the face-api demo photos: heavy eye make-up, coloured stage light): without glasses
 * the brighter eye of each face stood at 0.83 or more (one eye alone at 0.47); with lenses drawn on
 * the same faces (black, brown, grey at 75 %, navy) the brighter eye's median was 0.40 and 40 of 47
 * stood under 0.6 (the rest 0.60–0.82, and one face whose eyes the landmarks lost).
 */
export const HIDDEN_EYE_LIGHT = 0.6;
/**
 * Chin and lower cheeks this far in chroma (ln R/G, ln B/G) from the bare skin under the eyes are
 * covered. On the same 47 faces without masks: 0.00–0.33 (the highest two under coloured stage
 * light, lit blue on one side and warm on the other); with masks drawn: light blue and slate
 * 0.46–0.96 but for two, pink 0.00–0.60, white and black 0.04–0.52 (their chroma is the skin's
 * own distance from grey). A mask of no colour is therefore mostly missed: the margin above coloured
 * light matters more, since a false "mask" would turn a stranger's non-match into no verdict.
 * The middle of the lower lip must stand as far from the skin too (since 2026-11-29, twenty-third
 * session: a grey region drawn below the lips of a fixture face, where a beard grows, measured 0.46
 * and was taken for a mask). Under every drawn mask the lip lies under it and measures what the chin
 * does; bare lips on 145 faces: median 0.23 (lipstick, teeth and open mouths up to 2.3).
 */
export const HIDDEN_MOUTH_CHROMA = 0.45;
/**
 * A mask of no colour, a white surgical one above all, is told by what skin never is: the chin and
 * the cheeks beside the mouth far greyer than the bare skin above (their chroma from grey at most
 * MASK_GREYNESS of the skin's), brighter than it (WHITE_MASK_LIGHT), and even (the 15th to 85th
 * percentile of their grey within MASK_EVENNESS of the skin's median). Measured 2026-11-29 on the 11
 * fixture faces: bare, the lower face kept 0.89–1.38 of the skin's chroma, stood at 0.49–0.99 of its
 * brightness and spread 0.13–0.45; under a drawn white mask (shaded, with pleats) 0.11–0.15, 1.11–2.39
 * and 0.05–0.11. A black mask measured 0.19–0.37, 0.13–0.36 and 0.03–0.06; a dark beard is grey and
 * dark too, so a black mask is told by its lips as well (BLACK_MASK_LIGHT). A white beard would have
 * to be that even and brighter than the face to be taken for a mask. The one grey-white beard measured
 * since (deepface's test set, 2026-11-30) kept 0.59 of the skin's chroma and spread 0.36: far from a
 * mask on both.
 */
export const MASK_GREYNESS = 0.5;
export const WHITE_MASK_LIGHT = 1.05;
/**
 * A white mask on a face lit near white (stage light, a bright window, a flash) cannot stand 1.05
 * above skin that already measures 205–226 of 255. Drawn on 61 photos never seen here (deepface's
 * test set, 2026-11-30), 15 of the 17 white masks missed were such faces: lower face 0.93–1.05 of the
 * skin's grey, its chroma 0.05–0.28 of the skin's, spread 0.04–0.06. Bare faces are nowhere near on
 * the other two: on those 61 (12 bearded, one grey-white beard) the lower face kept 0.59 of the
 * skin's chroma or more (the grey-white beard lowest) and spread 0.13 or more; on the 145 faces
 * measured before, 0.66 and 0.13. So a lower face and lip nearly without colour (PALE_MASK_GREYNESS)
 * and very even (PALE_MASK_EVENNESS) is a mask already at PALE_MASK_LIGHT of the skin's grey: beards
 * are textured, skin has colour.
 */
export const PALE_MASK_LIGHT = 0.9;
export const PALE_MASK_GREYNESS = 0.3;
export const PALE_MASK_EVENNESS = 0.08;
/**
 * A black mask: the lower face and the lower lip at most this share of the bare skin's grey, both
 * grey (MASK_GREYNESS of the skin's chroma) and the lower face even (MASK_EVENNESS). The lip is what
 * tells it from a dark beard, which never covers it. Measured 2026-11-29 (twenty-third session) on
 * 145 faces at least 40 px wide (the fixtures, the face-api demo photos and 91 faces of the
 * face-match screenshot in @vladmandic/human's assets): bare, the lower face stood at 0.48 of the
 * skin's grey or more and kept 0.66 of its chroma or more; the lower lip kept 0.57 of the skin's
 * chroma or more, but for one smile whose lip point fell on the teeth (grey, and 1.39 of the skin's
 * grey). On the 11 fixture faces with a black mask drawn: lower face 0.13–0.36, its chroma 0.14–0.37;
 * the lip 0.15–0.40, its chroma 0.15–0.36; spread 0.03–0.06.
 */
export const BLACK_MASK_LIGHT = 0.45;
export const MASK_EVENNESS = 0.15;
/**
 * A mask of a colour nearer the skin's (pink, slate, grey-blue on pale skin): the chin and cheeks and
 * the lower lip at least EVEN_MASK_CHROMA in chroma from the bare skin, and the lower face even
 * (EVEN_MASK_SPREAD: its grey's 15th to 85th percentile over the skin's median). Measured 2026-11-30
 * (twenty-sixth session) on 242 bare faces (the fixtures, the packages' pictures, deepface's 61 test
 * photos and 24 from ageitgey/face_recognition and cmusatyalab/openface, never seen here before): 13
 * stood 0.2 or more from their skin's colour (coloured stage light, a screen's cast), and each spread
 * 0.178 or more; the evenest (0.069–0.10: small, soft faces) stood 0.04 or less from it. Masks drawn
 * on the 61 deepface photos, shaded top to bottom: slate and pink 0.2 or more from the skin on 60 of
 * 61, spread 0.044–0.085 on 59. Photographs of real surgical masks stretched over the same faces
 * spread more (medians 0.04–0.15: pleats and weave), so this catches the even ones only; a pink one
 * on faces lit warm stands too near the skin's colour (0.2 or more on 22 of 61).
 */
export const EVEN_MASK_CHROMA = 0.2;
export const EVEN_MASK_SPREAD = 0.1;
/**
 * …and the lower lip's grey within this of the lower face's median (both over the skin's): a lip is
 * 0.2 or more from the skin's colour on half of all bare faces, so the lip's colour alone does not say
 * it is covered. The same black drawn below the lips of the 61 deepface photos, the lips bare, was as
 * even and as unlike the skin on 13 of them; their lips stood 0.10 (one whose lip point fell on the
 * black) and 0.34–1.09 lighter than the chin, the lips under every mask drawn or photographed 0.07 or
 * less.
 */
export const EVEN_MASK_LIP_LIGHT = 0.08;
/**
 * Skin at least this far from grey for the white-mask test: "half the skin's chroma" means little
 * where the skin has hardly any (a dim, washed-out webcam). The fixture faces' skin: 0.16–0.56.
 */
const WHITE_MASK_SKIN_CHROMA = 0.08;
/** Grey at or above which the lower face is blown out (a flash on the chin): no colour left to judge. */
const BLOWN_OUT = 240;
/** Bare skin nearer grey than this in chroma: the photo has no colour to judge a mask by. */
const GREY_CHROMA = 0.04;

interface Sample {
	grey: number[];
	logRg: number[];
	logBg: number[];
	/** Pixels the box would hold were it all inside the image. */
	expected: number;
}

/** Most of the sample lies in the photo (a face cut by its edge is not judged where the cut is). */
const inside = (s: Sample) => s.grey.length >= 0.8 * s.expected;

/** Pixels of `image` on a grid of about 9×9 over the axis-aligned box centred at `c` (half sizes `hw`, `hh`). */
function sample(image: RgbaImage, c: Point, hw: number, hh: number): Sample {
	// A 9×9 grid is plenty for a median or an 85th percentile, and keeps the whole check at about
	// 0.6 ms a face (measured 2026-11-29 on a 222-px fixture face, Node, a quiet 2-core machine).
	const stepX = Math.max(1, Math.round(hw / 4));
	const stepY = Math.max(1, Math.round(hh / 4));
	const out: Sample = { grey: [], logRg: [], logBg: [], expected: (Math.floor((2 * Math.round(hw)) / stepX) + 1) * (Math.floor((2 * Math.round(hh)) / stepY) + 1) };
	const x0 = Math.round(c.x - hw);
	const y0 = Math.round(c.y - hh);
	for (let y = y0; y <= y0 + 2 * Math.round(hh); y += stepY) {
		if (y < 0 || y >= image.height) continue;
		for (let x = x0; x <= x0 + 2 * Math.round(hw); x += stepX) {
			if (x < 0 || x >= image.width) continue;
			const k = 4 * (y * image.width + x);
			const r = image.data[k];
			const g = image.data[k + 1];
			const b = image.data[k + 2];
			out.grey.push(0.299 * r + 0.587 * g + 0.114 * b);
			out.logRg.push(Math.log((r + 4) / (g + 4)));
			out.logBg.push(Math.log((b + 4) / (g + 4)));
		}
	}
	return out;
}

function quantile(values: number[], q: number): number {
	return values.length ? sortedQuantile([...values].sort((a, b) => a - b), q) : NaN;
}

/** The `q` quantile of values already in ascending order (several quantiles, one sort). */
const sortedQuantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

const merge = (...parts: Sample[]): Sample => ({ grey: parts.flatMap((p) => p.grey), logRg: parts.flatMap((p) => p.logRg), logBg: parts.flatMap((p) => p.logBg), expected: parts.reduce((n, p) => n + p.expected, 0) });
const lerp = (a: Point, b: Point, t: number): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });

/** The features hidden in the face with `landmarks` (68 points, image pixels). */
export function hiddenFeatures(image: RgbaImage, landmarks: Landmarks68): HiddenFeatures {
	const leftEye = meanPoint(landmarks, [36, 37, 38, 39, 40, 41]);
	const rightEye = meanPoint(landmarks, [42, 43, 44, 45, 46, 47]);
	const eyes = lerp(leftEye, rightEye, 0.5);
	const mouth = meanPoint(landmarks, [48, 54, 57, 51]);
	const eyeGap = Math.hypot(rightEye.x - leftEye.x, rightEye.y - leftEye.y);
	const unit = Math.max(2, eyeGap / 6);
	if (eyeGap < 12) return { eyes: false, mouth: false, eyeLight: null, mouthChroma: null };

	// Bare skin for the eyes: the cheeks beside the nostrils and the nose tip (below any lens).
	const lowerSkin = merge(
		sample(image, lerp(point(landmarks, 31), point(landmarks, 3), 0.45), unit, unit),
		sample(image, lerp(point(landmarks, 35), point(landmarks, 13), 0.45), unit, unit),
		sample(image, point(landmarks, 30), unit * 0.8, unit * 0.8)
	);
	// Bare skin for the mouth: under each eye and between the brows (above any mask).
	const down = { x: mouth.x - eyes.x, y: mouth.y - eyes.y };
	const forehead = sample(image, { x: eyes.x - 0.45 * down.x, y: eyes.y - 0.45 * down.y }, unit, unit * 0.6);
	const upperSkin = merge(
		sample(image, { x: leftEye.x + 0.3 * down.x, y: leftEye.y + 0.3 * down.y }, unit, unit * 0.6),
		sample(image, { x: rightEye.x + 0.3 * down.x, y: rightEye.y + 0.3 * down.y }, unit, unit * 0.6),
		forehead
	);

	const skinRg = quantile(upperSkin.logRg, 0.5);
	const skinBg = quantile(upperSkin.logBg, 0.5);
	// The chin and the cheeks beside the mouth.
	const lower = merge(
		sample(image, lerp(point(landmarks, 57), point(landmarks, 8), 0.55), unit * 1.2, unit * 0.7),
		sample(image, lerp(point(landmarks, 48), point(landmarks, 5), 0.5), unit * 0.8, unit * 0.8),
		sample(image, lerp(point(landmarks, 54), point(landmarks, 11), 0.5), unit * 0.8, unit * 0.8)
	);
	const skinChroma = Math.hypot(skinRg, skinBg);
	const judged = inside(upperSkin) && inside(lower) && skinChroma >= GREY_CHROMA;
	const lowerRg = judged ? quantile(lower.logRg, 0.5) : 0;
	const lowerBg = judged ? quantile(lower.logBg, 0.5) : 0;
	const mouthChroma = judged ? Math.hypot(lowerRg - skinRg, lowerBg - skinBg) : null;
	// A mask covers the lips too: each mask test must also hold at the middle of the lower lip. Never
	// the lips alone (lipstick is any colour), but a beard, however dark or grey, leaves them bare. The
	// lip is sampled only where the chin already looks covered: on a bare face (every analysed frame
	// of the page's worker) it costs nothing.
	const colouredChin = judged && mouthChroma! > HIDDEN_MOUTH_CHROMA;
	const greyChin = judged && skinChroma >= WHITE_MASK_SKIN_CHROMA && Math.hypot(lowerRg, lowerBg) <= MASK_GREYNESS * skinChroma;
	// Less unlike the skin, but as even as a mask and no face (the spread is sorted only here: about
	// one bare face in twenty is this far from its skin's colour).
	const even = judged && mouthChroma! >= EVEN_MASK_CHROMA ? evenness(lower.grey, upperSkin.grey) : null;
	const evenChin = even !== null && even.spread <= EVEN_MASK_SPREAD;
	let mouthHidden = false;
	if (colouredChin || greyChin || evenChin) {
		const lip = sample(image, lerp(point(landmarks, 57), point(landmarks, 66), 0.5), unit * 0.35, unit * 0.35);
		const lipRg = quantile(lip.logRg, 0.5);
		const lipBg = quantile(lip.logBg, 0.5);
		const lipDistance = Math.hypot(lipRg - skinRg, lipBg - skinBg);
		// The even test's lip must also be as light as the chin: the same cloth over both (a dark
		// beard below bare lips is as even and as far from the skin's colour, and its lip is bright).
		const lipLikeChin = evenChin && Math.abs(quantile(lip.grey, 0.5) / Math.max(1, quantile(upperSkin.grey, 0.5)) - even.median) <= EVEN_MASK_LIP_LIGHT;
		const coloured = (colouredChin && lipDistance > HIDDEN_MOUTH_CHROMA) || (lipLikeChin && lipDistance >= EVEN_MASK_CHROMA);
		const colourless = greyChin && Math.hypot(lipRg, lipBg) <= MASK_GREYNESS * skinChroma;
		// How grey the lower face and the lip are, as a share of the bare skin's chroma (paler masks: isWhiteMask).
		const greyness = Math.max(Math.hypot(lowerRg, lowerBg), Math.hypot(lipRg, lipBg)) / skinChroma;
		mouthHidden = inside(lip) && (coloured || (colourless && (isWhiteMask(lower.grey, upperSkin.grey, greyness) || isBlackMask(lower.grey, lip.grey, upperSkin.grey))));
	}

	// The eyes against the cheeks beside the nose (or, where a mask covers those, under the eyes), and
	// against the brow: both must find them dark. A white mask the eyes' cheeks measured alone made
	// bare eyes look dark; dark fringe over the brow only makes a lens harder to see.
	const skin = mouthHidden ? upperSkin : lowerSkin;
	const eyeSamples = [leftEye, rightEye].map((c) => sample(image, c, unit * 1.4, unit * 0.9));
	const against = (s: Sample) => eyeSamples.map((e) => quantile(e.grey, 0.85) / Math.max(1, quantile(s.grey, 0.5))) as [number, number];
	const light = inside(skin) && eyeSamples.every(inside) ? against(skin) : null;
	const browLight = light && inside(forehead) ? against(forehead) : null;
	return {
		eyes: light !== null && Math.max(...light) < HIDDEN_EYE_LIGHT && (browLight === null || Math.max(...browLight) < HIDDEN_EYE_LIGHT),
		mouth: mouthHidden,
		eyeLight: light,
		mouthChroma
	};
}

/** The lower face's median grey and its spread (15th to 85th percentile), each over the bare skin's median grey. */
function evenness(lowerGreys: number[], skinGreys: number[]): { median: number; spread: number } {
	const lower = [...lowerGreys].sort((a, b) => a - b);
	const skinGrey = Math.max(1, quantile(skinGreys, 0.5));
	return { median: sortedQuantile(lower, 0.5) / skinGrey, spread: (sortedQuantile(lower, 0.85) - sortedQuantile(lower, 0.15)) / skinGrey };
}

/**
 * The lower face, already found grey (MASK_GREYNESS: which turns away every bare face measured, 0.66
 * of the skin's chroma or more on 145 faces, from medians the chroma test already took, so this costs
 * nothing on most frames; the page's worker runs it on every analysed frame), is also bright and even
 * as a white mask is, and bare skin is not.
 */
function isWhiteMask(lowerGreys: number[], skinGreys: number[], greyness: number): boolean {
	const lower = [...lowerGreys].sort((a, b) => a - b);
	const at = (q: number) => sortedQuantile(lower, q);
	const skinGrey = Math.max(1, quantile(skinGreys, 0.5));
	const lowerGrey = at(0.5);
	const spread = (at(0.85) - at(0.15)) / skinGrey;
	if (lowerGrey >= BLOWN_OUT) return false;
	if (lowerGrey >= WHITE_MASK_LIGHT * skinGrey) return spread <= MASK_EVENNESS;
	// Skin lit near white: as bright as it, with hardly any colour and hardly any texture (PALE_MASK_LIGHT).
	return lowerGrey >= PALE_MASK_LIGHT * skinGrey && greyness <= PALE_MASK_GREYNESS && spread <= PALE_MASK_EVENNESS;
}

/**
 * The lower face and the lower lip, already found grey, are also dark, and the lower face even, as a
 * black mask is; bare skin is not, and teeth, grey too, are bright.
 */
function isBlackMask(lowerGreys: number[], lipGreys: number[], skinGreys: number[]): boolean {
	const skinGrey = Math.max(1, quantile(skinGreys, 0.5));
	const lower = [...lowerGreys].sort((a, b) => a - b);
	if (sortedQuantile(lower, 0.5) > BLACK_MASK_LIGHT * skinGrey || quantile(lipGreys, 0.5) > BLACK_MASK_LIGHT * skinGrey) return false;
	return (sortedQuantile(lower, 0.85) - sortedQuantile(lower, 0.15)) / skinGrey <= MASK_EVENNESS;
}

/** The hidden features by name, eyes first. */
export const hiddenList = (h: HiddenFeatures): HiddenFeature[] => (['eyes', 'mouth'] as const).filter((f) => h[f]);
