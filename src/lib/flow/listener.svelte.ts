import type { SupportedLang } from '#lib/domain/languages.ts';
import { recognitionTag } from './speech.svelte.ts';

// Apart from the avatar's voice (speech.svelte.ts): only the conversation screen listens, so this
// is fetched with it, not with the page's first screen, which speaks nothing.

interface RecognitionLike extends EventTarget {
	lang: string;
	interimResults: boolean;
	continuous: boolean;
	maxAlternatives: number;
	start(): void;
	stop(): void;
	abort(): void;
	onresult: ((event: { resultIndex: number; results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }> }) => void) | null;
	onerror: ((event: { error: string }) => void) | null;
	onend: (() => void) | null;
}

type RecognitionCtor = new () => RecognitionLike;

function recognitionCtor(): RecognitionCtor | null {
	if (typeof window === 'undefined') return null;
	const w = window as unknown as { SpeechRecognition?: RecognitionCtor; webkitSpeechRecognition?: RecognitionCtor };
	return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/** What went wrong while listening, in terms of what the page tells the user. */
export type ListenProblem = 'unavailable' | 'notUnderstood';

/**
 * Answers by voice where the browser offers speech recognition; typing always works. Interim words
 * appear in the text field as they are heard; the final transcript is handed to `onFinal`.
 */
export class Listener {
	readonly supported = recognitionCtor() !== null;
	listening = $state(false);
	problem = $state<ListenProblem | null>(null);
	#active: RecognitionLike | null = null;

	start(lang: SupportedLang, onInterim: (text: string) => void, onFinal: (text: string) => void): void {
		const Ctor = recognitionCtor();
		if (!Ctor || this.listening) return;
		const rec = new Ctor();
		rec.lang = recognitionTag(lang);
		rec.interimResults = true;
		rec.continuous = false;
		rec.maxAlternatives = 1;
		let final = '';
		rec.onresult = (event) => {
			let interim = '';
			for (let i = event.resultIndex; i < event.results.length; i++) {
				const result = event.results[i]!;
				if (result.isFinal) final += result[0].transcript;
				else interim += result[0].transcript;
			}
			onInterim((final + interim).trim());
		};
		rec.onerror = (event) => {
			// not-allowed / service-not-allowed / network (no speech service reachable): type instead.
			if (event.error === 'aborted') return;
			this.problem = event.error === 'no-speech' ? 'notUnderstood' : 'unavailable';
		};
		rec.onend = () => {
			this.listening = false;
			this.#active = null;
			if (final.trim()) onFinal(final.trim());
		};
		this.problem = null;
		this.listening = true;
		this.#active = rec;
		try {
			rec.start();
		} catch {
			this.listening = false;
			this.problem = 'unavailable';
		}
	}

	stop(): void {
		this.#active?.stop();
	}

	abort(): void {
		this.#active?.abort();
		this.listening = false;
	}
}
