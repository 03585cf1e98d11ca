// The page's face detector (browser only): one per page (its wasm and model are large; nodes share
// it), created early. The permissions page starts it, so by the time a face node opens the detector
// is built and has already run once: the first detection of a fresh MediaPipe graph pays for its
// setup (about half a second measured in headless Chromium), and that wait used to sit between the
// picture showing and the first guidance.
import type { FaceDetectorPort } from './detector.ts';

const detectors = new Map<boolean, Promise<FaceDetectorPort>>();

/** Runs one detection on a blank frame, so the graph's setup is done before a user waits on it. */
function warm(detector: FaceDetectorPort): FaceDetectorPort {
	try {
		const blank = new OffscreenCanvas(128, 128);
		const g = blank.getContext('2d');
		if (g) {
			g.fillStyle = '#777';
			g.fillRect(0, 0, 128, 128);
		}
		detector.detect(blank, performance.now());
		performance.mark('vf:detector:warm');
	} catch {
		// a detector that cannot warm up will say so on its first real frame
	}
	return detector;
}

/** The shared detector for `useWebGL` (a node that forbids WebGL gets a CPU one of its own). */
export function sharedDetector(useWebGL: boolean): Promise<FaceDetectorPort> {
	let detector = detectors.get(useWebGL);
	if (!detector) {
		detector = import('./detector.mediapipe.ts').then((m) => m.createMediaPipeDetector({ useWebGL })).then(warm);
		detector.catch(() => detectors.delete(useWebGL));
		detectors.set(useWebGL, detector);
	}
	return detector;
}
