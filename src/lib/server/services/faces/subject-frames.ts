// The frames of a try whose face is the subject's. A frame with one face is; a frame with several is
// too when its largest face stands where the subject stood in the nearest one-face frame (about as
// big, not far off: the turn's own face-jump rule). A face found on a poster, an emblem or a
// passer-by behind the user then no longer costs the challenge and the light that frame: the
// attack suite's subject drawn from Biden's portrait lost 3 of 14 frames to the seal on the flag
// behind him (found as a face at 0.68–0.87 once lit), and with them the turn's peak (`notTurned` at
// 15°, `frameGap`). Frames with no one-face frame to stand by stay out.
import type { Box } from '#lib/face/image.ts';
import { sameFaceBox } from '#lib/face/turn-continuity.ts';

interface FrameFaces {
	t: number;
	faceCount: number;
	face: { box: Box } | null;
}

export function subjectFrames<F extends FrameFaces>(frames: readonly F[]): F[] {
	const single = frames.filter((f) => f.faceCount === 1 && f.face);
	return frames.filter((f) => {
		if (!f.face || f.faceCount < 1) return false;
		if (f.faceCount === 1) return true;
		let nearest: F | undefined;
		for (const s of single) if (!nearest || Math.abs(s.t - f.t) < Math.abs(nearest.t - f.t)) nearest = s;
		return nearest !== undefined && sameFaceBox(nearest.face!.box, f.face.box);
	});
}
