import { describe, expect, it } from 'vitest';
import { pickVoice, readingTimeMs, recognitionTag } from './speech.svelte.ts';

const v = (lang: string, localService = false) => ({ lang, localService, name: lang });

describe('pickVoice', () => {
	const voices = [v('en-GB'), v('en-US', true), v('de-DE'), v('pt_PT'), v('zh-CN'), v('nb-NO')];
	it('prefers the exact tag and a local voice', () => {
		expect(pickVoice(voices, 'en')?.lang).toBe('en-US');
		expect(pickVoice(voices, 'de')?.lang).toBe('de-DE');
		expect(pickVoice(voices, 'no')?.lang).toBe('nb-NO');
		expect(pickVoice(voices, 'pt')?.lang).toBe('pt_PT');
	});
	it('finds none rather than a wrong one: captions carry the words', () => {
		expect(pickVoice(voices, 'ja')).toBeNull();
		expect(pickVoice(voices, 'zh-HK')).toBeNull();
		expect(pickVoice([], 'en')).toBeNull();
	});
});

describe('speech helpers', () => {
	it('gives recognition a regional tag and readers a bounded pause', () => {
		expect(recognitionTag('zh')).toBe('zh-CN');
		expect(recognitionTag('no')).toBe('nb-NO');
		expect(readingTimeMs('Hi')).toBe(1500);
		expect(readingTimeMs('x'.repeat(1000))).toBe(8000);
	});
});
