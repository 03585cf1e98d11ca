// Whether a BlazeFace detection is a face, before the page tells the user "Perfect, hold it there".
// BlazeFace fires on round, face-sized things (a coffee cup seen from above scored 0.43–0.52 on the
// fixture still; our fixture faces 0.92–0.98), and on those it regresses its six keypoints to an
// average face, so the keypoints of a false detection often look right. Two checks, both needed:
// the detector must be sure (a real face in front of the camera scores high), and the keypoints
// must sit as a face's do (eyes level-ish and apart, nose then mouth below them, ears outside the
// eyes), which catches the detections whose keypoints fall apart (a rocket, a textured oval).
// Measured on real pixels: tests/fixtures/faces/blazeface-detections.json (scripts/blazeface-keypoints.ts).
import type { DetectedFace } from './detector.ts';

/**
 * Lowest detector score that counts as a face. MediaPipe's own default (0.5) lets the coffee cup in;
 * our fixture faces, frontal and three-quarter, score ≥ 0.92. 0.7 leaves room for a dim room or a
 * cheap camera and none for a cup: a face the detector is unsure of gets "we can't see your face",
 * which costs a real user a moment to move into the light, not a wrongly passed hold.
 */
export const PLAUSIBLE_FACE_SCORE = 0.7;

export type ImplausibleReason = 'lowScore' | 'tilted' | 'eyeSpacing' | 'noseMouthOrder' | 'earsInside';

/** Why a detection is not a face, or null when it is a plausible one. */
export function implausibility(face: DetectedFace): ImplausibleReason | null {
	if (!(face.score >= PLAUSIBLE_FACE_SCORE)) return 'lowScore';
	const [eyeA, eyeB, nose, mouth, earA, earB] = face.keypoints;
	const ex = eyeB.x - eyeA.x;
	const ey = eyeB.y - eyeA.y;
	const eyes = Math.hypot(ex, ey);
	// A face upright enough to be guided (the gate asks for a level head well before 45°).
	if (!(ex > 0) || Math.abs(Math.atan2(ey, ex)) > Math.PI / 4) return 'tilted';
	// Eye distance to box width: 0.40–0.46 on the fixture faces (0.40 at 16° of yaw).
	const spacing = eyes / Math.max(1, face.box.width);
	if (spacing < 0.25 || spacing > 0.6) return 'eyeSpacing';
	// Into the face's own frame: u along the eye line, v down from it, both in eye distances.
	const ux = ex / eyes;
	const uy = ey / eyes;
	const frame = (p: { x: number; y: number }) => ({ u: ((p.x - eyeA.x) * ux + (p.y - eyeA.y) * uy) / eyes, v: (-(p.x - eyeA.x) * uy + (p.y - eyeA.y) * ux) / eyes });
	const n = frame(nose);
	const m = frame(mouth);
	// Fixture faces: nose 0.4–0.6 and mouth 0.9–1.1 eye distances below the eye line.
	if (n.v < 0.15 || m.v < n.v + 0.15 || m.v < 0.5 || m.v > 1.8) return 'noseMouthOrder';
	// The nose and mouth between the eyes, give or take a turned head (three-quarter: 0.25).
	if (n.u < -0.5 || n.u > 1.5 || m.u < -0.5 || m.u > 1.5) return 'noseMouthOrder';
	// Ears outside the eyes (a turned head brings the far ear in: 0.2 of slack).
	if (frame(earA).u > 0.2 || frame(earB).u < 0.8) return 'earsInside';
	return null;
}

/** The detections that are plausibly faces. */
export function plausibleFaces<T extends DetectedFace>(faces: readonly T[]): T[] {
	return faces.filter((f) => implausibility(f) === null);
}
