// The landmark model and the quality crop were calibrated on fr_detect's boxes; the browser finds
// faces with MediaPipe's BlazeFace (fast, on the video frame directly). These map between the two.
import {
	BLAZE_TO_FR_CENTRE_Y,
	BLAZE_TO_FR_SIDE,
	LANDMARKS_TO_FR_HEIGHT,
	LANDMARKS_TO_FR_TOP
} from '#lib/face/face-thresholds.ts';
import type { Box } from '#lib/face/image.ts';
import type { Landmarks68 } from '#lib/face/landmarks.ts';

/** An fr_detect-like box from a BlazeFace box (square, the side of fr_detect's height). */
export function frBoxFromBlaze(box: Box): Box {
	const side = Math.max(box.width, box.height) * BLAZE_TO_FR_SIDE;
	const cx = box.x + box.width / 2;
	const cy = box.y + box.height / 2 + BLAZE_TO_FR_CENTRE_Y * box.width;
	return { x: cx - side / 2, y: cy - side / 2, width: side, height: side };
}

/** An fr_detect-like box from 68 landmarks (a second landmark pass on it lands where the server's does). */
export function frBoxFromLandmarks(l: Landmarks68): Box {
	let minX = Infinity;
	let maxX = -Infinity;
	let minY = Infinity;
	let maxY = -Infinity;
	for (let i = 0; i < 68; i++) {
		minX = Math.min(minX, l[2 * i]);
		maxX = Math.max(maxX, l[2 * i]);
		minY = Math.min(minY, l[2 * i + 1]);
		maxY = Math.max(maxY, l[2 * i + 1]);
	}
	const height = (maxY - minY) * LANDMARKS_TO_FR_HEIGHT;
	const cx = (minX + maxX) / 2;
	return { x: cx - height / 2, y: minY + LANDMARKS_TO_FR_TOP * (maxY - minY), width: height, height };
}
