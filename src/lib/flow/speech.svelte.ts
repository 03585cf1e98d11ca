import type { SupportedLang } from '#lib/domain/languages.ts';

/** BCP-47 tags browsers' speech engines use for the interface languages. */
const SPEECH_TAGS: Record<SupportedLang, string[]> = {
	en: ['en-US', 'en-GB', 'en'],
	it: ['it-IT', 'it'],
	de: ['de-DE', 'de'],
	fr: ['fr-FR', 'fr'],
	es: ['es-ES', 'es'],
	pt: ['pt-BR', 'pt-PT', 'pt'],
	ru: ['ru-RU', 'ru'],
	ja: ['ja-JP', 'ja'],
	id: ['id-ID', 'id'],
	no: ['nb-NO', 'no-NO', 'nb', 'no'],
	zh: ['zh-CN', 'cmn-Hans-CN', 'zh'],
	'zh-TW': ['zh-TW', 'cmn-Hant-TW'],
	'zh-HK': ['zh-HK', 'yue-Hant-HK', 'yue']
};

/** The voice to speak a language with: an exact tag first, then the same language; null if none. */
export function pickVoice<V extends { lang: string; localService?: boolean; default?: boolean }>(voices: readonly V[], lang: SupportedLang): V | null {
	const norm = (t: string) => t.replace('_', '-').toLowerCase();
	for (const tag of SPEECH_TAGS[lang]) {
		const exact = voices.filter((v) => norm(v.lang) === tag.toLowerCase());
		if (exact.length) return exact.find((v) => v.localService) ?? exact[0]!;
	}
	// Chinese variants must not borrow each other's voices (Mandarin for Cantonese readers).
	if (lang.startsWith('zh')) return null;
	const base = SPEECH_TAGS[lang][SPEECH_TAGS[lang].length - 1]!;
	return voices.find((v) => norm(v.lang).split('-')[0] === base) ?? null;
}

export function recognitionTag(lang: SupportedLang): string {
	return SPEECH_TAGS[lang][0]!;
}

/** A reading pause for text shown without a voice: long enough to read, short enough not to wait. */
export function readingTimeMs(text: string): number {
	return Math.min(8000, Math.max(1500, text.length * 55));
}

/**
 * The avatar's voice: browser speech synthesis in the session language where a voice exists.
 * Phrases are queued; `speak` resolves when the phrase is over (or at once when there is no voice,
 * the user muted it, or the browser refused to speak before a user gesture).
 */
export class Voice {
	muted = $state(false);
	speaking = $state(false);
	/** No voice for the language (until `check` finds one): captions carry the words. */
	unavailable = $state(true);
	#synth: SpeechSynthesis | null = typeof speechSynthesis !== 'undefined' ? speechSynthesis : null;
	#chain: Promise<void> = Promise.resolve();

	speak(text: string, lang: SupportedLang): Promise<void> {
		const run = this.#chain.then(() => this.#speakOne(text, lang));
		this.#chain = run.catch(() => {});
		return run;
	}

	/** Looks for a voice for the language, so controls that need one show only when it exists. */
	async check(lang: SupportedLang): Promise<void> {
		this.unavailable = !this.#synth || pickVoice(await voices(this.#synth), lang) === null;
	}

	cancel(): void {
		this.#synth?.cancel();
		this.speaking = false;
	}

	toggleMute(): void {
		this.muted = !this.muted;
		if (this.muted) this.cancel();
	}

	async #speakOne(text: string, lang: SupportedLang): Promise<void> {
		const synth = this.#synth;
		if (!synth || this.muted || !text.trim()) return;
		const voice = pickVoice(await voices(synth), lang);
		if (!voice) {
			this.unavailable = true;
			return;
		}
		this.unavailable = false;
		await new Promise<void>((resolve) => {
			const utterance = new SpeechSynthesisUtterance(text);
			utterance.voice = voice;
			utterance.lang = voice.lang;
			let settled = false;
			const finish = () => {
				if (settled) return;
				settled = true;
				clearTimeout(guard);
				this.speaking = false;
				resolve();
			};
			// Some engines never fire `end` (Chrome drops long utterances): never wait for ever.
			const guard = setTimeout(finish, 4000 + text.length * 120);
			utterance.onend = finish;
			utterance.onerror = finish;
			this.speaking = true;
			synth.speak(utterance);
		});
	}
}

function voices(synth: SpeechSynthesis): Promise<SpeechSynthesisVoice[]> {
	const now = synth.getVoices();
	if (now.length) return Promise.resolve(now);
	// Voices load asynchronously in Chrome; an engine without any never fires the event.
	return new Promise((resolve) => {
		const done = () => {
			clearTimeout(timer);
			synth.removeEventListener('voiceschanged', done);
			resolve(synth.getVoices());
		};
		const timer = setTimeout(done, 600);
		synth.addEventListener('voiceschanged', done);
	});
}
