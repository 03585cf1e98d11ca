/**
 * Joins short UI phrases into one line of sentences in the way the language writes them: Latin and
 * Cyrillic scripts end a phrase with ". " (unless it already ends in punctuation); Chinese and
 * Japanese with the ideographic full stop "。" and no space.
 */
const CJK = new Set(['ja', 'zh', 'zh-TW', 'zh-HK']);
const ENDS_SENTENCE = /[.!?…。！？]$/u;

export function sentences(lang: string, ...parts: string[]): string {
	const cjk = CJK.has(lang);
	const kept = parts.map((p) => p.trim()).filter(Boolean);
	return kept
		.map((p, i) => {
			if (i === kept.length - 1) return p;
			if (ENDS_SENTENCE.test(p)) return cjk ? p : `${p} `;
			return cjk ? `${p}。` : `${p}. `;
		})
		.join('');
}
