// Head pose from BlazeFace's six keypoints, for live guidance ("look straight at the camera") on every
// frame without running the landmark model. Rougher than headPose() on 68 landmarks; the challenge
// and the server use those.
import { KEYPOINT_PITCH_NEUTRAL, KEYPOINT_YAW_GAIN } from '#lib/face/face-thresholds.ts';
import type { Point } from '#lib/face/image.ts';
import type { HeadPose } from '#lib/face/quality.ts';

/** BlazeFace keypoint order: the subject's right eye (image left), left eye, nose tip, mouth centre, right ear tragion, left ear tragion. */
export type BlazeKeypoints = readonly [Point, Point, Point, Point, Point, Point];

const deg = (v: number) => (Math.asin(Math.max(-1, Math.min(1, v))) * 180) / Math.PI;

/** Yaw, pitch and roll in degrees, same conventions as headPose() (yaw + = towards the image right). */
export function keypointPose(k: BlazeKeypoints): HeadPose {
	const [eyeA, eyeB, nose, mouth, earA, earB] = k;
	const roll = (Math.atan2(eyeB.y - eyeA.y, eyeB.x - eyeA.x) * 180) / Math.PI;
	const span = earB.x - earA.x;
	const yaw = span !== 0 ? KEYPOINT_YAW_GAIN * deg(2 * ((nose.x - earA.x) / span) - 1) : 0;
	const eyeY = (eyeA.y + eyeB.y) / 2;
	const drop = mouth.y - eyeY;
	const pitch = drop > 0 ? deg(2 * ((nose.y - eyeY) / drop - KEYPOINT_PITCH_NEUTRAL)) : 0;
	return { yaw, pitch, roll };
}
