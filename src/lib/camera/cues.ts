// Sound and vibration cues of the face nodes (`enableSound`, `enableHaptics`), browser only. Short and
// quiet; both fail silently where the browser refuses (no user gesture yet, no vibration motor).
import type { Cue } from './capture-machine.ts';

const TONES: Record<Cue, [number, number][]> = {
	ready: [[660, 0.07]],
	capture: [[880, 0.09]],
	success: [
		[660, 0.08],
		[990, 0.12]
	],
	fail: [[300, 0.2]]
};

const VIBRATION: Record<Cue, number[]> = { ready: [20], capture: [40], success: [30, 60, 30], fail: [120] };

export function createCues({ sound, haptics }: { sound: boolean; haptics: boolean }): (cue: Cue) => void {
	let audio: AudioContext | null = null;
	return (cue) => {
		if (haptics && typeof navigator !== 'undefined' && 'vibrate' in navigator) {
			try {
				navigator.vibrate(VIBRATION[cue]);
			} catch {
				// not allowed here
			}
		}
		if (!sound || typeof AudioContext === 'undefined') return;
		try {
			audio ??= new AudioContext();
			if (audio.state === 'suspended') void audio.resume();
			let at = audio.currentTime;
			for (const [hz, seconds] of TONES[cue]) {
				const osc = audio.createOscillator();
				const gain = audio.createGain();
				osc.frequency.value = hz;
				gain.gain.setValueAtTime(0.0001, at);
				gain.gain.exponentialRampToValueAtTime(0.08, at + 0.01);
				gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
				osc.connect(gain).connect(audio.destination);
				osc.start(at);
				osc.stop(at + seconds + 0.02);
				at += seconds + 0.03;
			}
		} catch {
			// no audio output
		}
	};
}
