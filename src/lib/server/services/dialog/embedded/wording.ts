import type { Choice, SupportedLang } from '../dialog.types.ts';
import type { Predicate } from './conditions.ts';
import type { Intent } from './intent-lexicon.ts';

/**
 * Words for the user made from what the integrator wrote for the machine: outcome conditions
 * become answers the user can pick ("The user says they live in Germany" → "I live in Germany"),
 * and a goal prompt the phrasebook does not know becomes a question ("Ask the user which country
 * they live in" → "Which country do you live in?") instead of being read out as an instruction.
 * Conditions and goals are written in English, so the rewrites are English; answers the embedded
 * judge understands (yes, no, ready, not yet…) are labelled in the session language.
 */

type LabelKey = Extract<Intent, 'agree' | 'decline' | 'ready' | 'notReady' | 'unsure' | 'help' | 'repeat'> | 'other';
type LineKey = LabelKey | 'pick';

const LABELS: Record<SupportedLang, Record<LineKey, string>> = {
	en: { pick: 'Please pick the answer that fits you below.', agree: 'Yes, I agree', decline: 'No', ready: "Yes, I'm ready", notReady: 'Not yet', unsure: "I'm not sure", help: 'I need help', repeat: 'Please say that again', other: 'Something else' },
	it: { pick: 'Scegli qui sotto la risposta che fa per te.', agree: 'Sì, accetto', decline: 'No', ready: 'Sì, sono pronto', notReady: 'Non ancora', unsure: 'Non sono sicuro', help: 'Ho bisogno di aiuto', repeat: 'Puoi ripetere?', other: "Un'altra cosa" },
	de: { pick: 'Bitte wählen Sie unten die passende Antwort.', agree: 'Ja, einverstanden', decline: 'Nein', ready: 'Ja, ich bin bereit', notReady: 'Noch nicht', unsure: 'Ich bin mir nicht sicher', help: 'Ich brauche Hilfe', repeat: 'Bitte wiederholen', other: 'Etwas anderes' },
	fr: { pick: 'Veuillez choisir ci-dessous la réponse qui vous correspond.', agree: "Oui, j'accepte", decline: 'Non', ready: 'Oui, je suis prêt', notReady: 'Pas encore', unsure: 'Je ne suis pas sûr', help: "J'ai besoin d'aide", repeat: 'Pouvez-vous répéter ?', other: 'Autre chose' },
	es: { pick: 'Elige abajo la respuesta que te corresponda.', agree: 'Sí, acepto', decline: 'No', ready: 'Sí, estoy listo', notReady: 'Todavía no', unsure: 'No estoy seguro', help: 'Necesito ayuda', repeat: '¿Puedes repetirlo?', other: 'Otra cosa' },
	pt: { pick: 'Escolha abaixo a resposta que combina com você.', agree: 'Sim, concordo', decline: 'Não', ready: 'Sim, estou pronto', notReady: 'Ainda não', unsure: 'Não tenho certeza', help: 'Preciso de ajuda', repeat: 'Pode repetir?', other: 'Outra coisa' },
	ru: { pick: 'Пожалуйста, выберите подходящий ответ ниже.', agree: 'Да, согласен', decline: 'Нет', ready: 'Да, я готов', notReady: 'Пока нет', unsure: 'Не уверен', help: 'Мне нужна помощь', repeat: 'Повторите, пожалуйста', other: 'Другое' },
	ja: { pick: '下の選択肢から当てはまる答えを選んでください。', agree: 'はい、同意します', decline: 'いいえ', ready: 'はい、準備できました', notReady: 'まだです', unsure: 'よくわかりません', help: '助けてください', repeat: 'もう一度お願いします', other: 'その他' },
	id: { pick: 'Silakan pilih jawaban yang sesuai di bawah.', agree: 'Ya, saya setuju', decline: 'Tidak', ready: 'Ya, saya siap', notReady: 'Belum', unsure: 'Saya tidak yakin', help: 'Saya butuh bantuan', repeat: 'Tolong ulangi', other: 'Lainnya' },
	no: { pick: 'Velg svaret som passer for deg nedenfor.', agree: 'Ja, jeg godtar', decline: 'Nei', ready: 'Ja, jeg er klar', notReady: 'Ikke ennå', unsure: 'Jeg er usikker', help: 'Jeg trenger hjelp', repeat: 'Kan du gjenta?', other: 'Noe annet' },
	zh: { pick: '请在下方选择适合您的回答。', agree: '是的，我同意', decline: '不', ready: '是的，我准备好了', notReady: '还没有', unsure: '我不确定', help: '我需要帮助', repeat: '请再说一遍', other: '其他' },
	'zh-TW': { pick: '請在下方選擇適合您的回答。', agree: '是的，我同意', decline: '不', ready: '是的，我準備好了', notReady: '還沒有', unsure: '我不確定', help: '我需要幫助', repeat: '請再說一遍', other: '其他' },
	'zh-HK': { pick: '請在下面揀選適合你的答案。', agree: '係，我同意', decline: '唔係', ready: '係，我準備好了', notReady: '仲未', unsure: '我唔肯定', help: '我需要幫忙', repeat: '請再講一次', other: '其他' }
};

const SUBJECT = /^(?:if|when|whether)?\s*(?:the\s+)?(?:end[\s-]user|user|customer|person|client|caller|applicant|participant|he or she|they|he|she)\b(?:'s)?\s*/i;
const SPEECH = /^(?:says?|said|states?|stated|tells? (?:us|you)|told (?:us|you)|confirms?|confirmed|mentions?|mentioned|answers?|answered|replies|replied|responds?|responded|indicates?|indicated|claims?|claimed|reports?|reported|explains?|explained)\b\s*(?:that\s+)?/i;

const PRONOUNS: [RegExp, string][] = [
	[/\bthey're\b/gi, "I'm"],
	[/\bthey are\b/gi, 'I am'],
	[/\bthey were\b/gi, 'I was'],
	[/\bthey've\b/gi, "I've"],
	[/\bthemselves\b/gi, 'myself'],
	[/\btheirs\b/gi, 'mine'],
	[/\btheir\b/gi, 'my'],
	[/\bthem\b/gi, 'me'],
	[/\bthey\b/gi, 'I'],
	[/\b(?:his or her|his|her)\b/gi, 'my']
];

const IRREGULAR_THIRD: Record<string, string> = { is: 'am', has: 'have', does: 'do', was: 'was', "isn't": "am not", "doesn't": "don't", "hasn't": "haven't" };

/** "lives" → "live", "has" → "have", "is" → "am", "goes" → "go", "studies" → "study". */
function firstPerson(verb: string): string {
	const lower = verb.toLowerCase();
	if (IRREGULAR_THIRD[lower]) return IRREGULAR_THIRD[lower]!;
	if (/[^aeiou]ies$/.test(lower)) return `${lower.slice(0, -3)}y`;
	if (/(?:ss|sh|ch|x|z|o)es$/.test(lower)) return lower.slice(0, -2);
	if (/[^s]s$/.test(lower)) return lower.slice(0, -1);
	return lower;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const tidy = (s: string) => s.replace(/\s+/g, ' ').replace(/[\s.;:!]+$/, '').trim();

/** A condition as the user would say it, in English ("The user lives elsewhere" → "I live elsewhere"). */
export function userWording(condition: string): string {
	let text = tidy(condition.slice(0, 200));
	const subject = SUBJECT.exec(text);
	if (!subject || !subject[0].trim()) return capitalise(text);
	text = text.slice(subject[0].length).replace(SPEECH, '');
	if (/^(?:they|he|she|he or she)\b/i.test(text)) {
		text = text.replace(/^(?:he or she|he|she)\b/i, 'they');
	} else {
		const [verb, ...rest] = text.split(' ');
		text = ['I', firstPerson(verb ?? ''), ...rest].join(' ');
	}
	for (const [re, to] of PRONOUNS) text = text.replace(re, to);
	return capitalise(tidy(text.replace(/\bI am\b/, "I'm")));
}

/**
 * The outcome as an answer the user can pick, or null when picking it makes no sense (the
 * condition needs something typed, such as an e-mail address, or judges a validation).
 */
export function choiceLabel(predicate: Predicate | null, condition: string, lang: SupportedLang): string | null {
	const labels = LABELS[lang] ?? LABELS.en;
	if (!predicate) return userWording(condition);
	switch (predicate.kind) {
		case 'always':
		case 'unrecognized':
			return labels.other;
		case 'intent':
			return labels[predicate.intent as LabelKey] ?? null;
		case 'says':
			return capitalise(predicate.text);
		case 'not':
			// "The user is not ready" reads as "Not yet"; other negations as the integrator wrote them.
			if (predicate.of.kind === 'intent' && (predicate.of.intent === 'ready' || predicate.of.intent === 'agree')) return predicate.of.intent === 'ready' ? labels.notReady : labels.decline;
			return null;
		case 'all':
		case 'any': {
			const first = predicate.of.map((p) => choiceLabel(p, condition, lang)).find((l) => l !== null);
			return first ?? null;
		}
		default:
			return null;
	}
}

/** Said when a goal could not be phrased: the outcomes are offered as choices instead. */
export function pickLine(lang: SupportedLang): string {
	return (LABELS[lang] ?? LABELS.en).pick;
}

/** Each outcome once, first label wins; outcomes with no sensible label are left out. */
export function choicesFrom(outcomes: readonly { id: string; condition: string }[], lang: SupportedLang, predicateOf: (condition: string) => Predicate | null): Choice[] {
	const seen = new Set<string>();
	const choices: Choice[] = [];
	for (const outcome of outcomes) {
		const label = choiceLabel(predicateOf(outcome.condition), outcome.condition, lang);
		if (!label || seen.has(label.toLowerCase())) continue;
		seen.add(label.toLowerCase());
		choices.push({ id: outcome.id, label: label.slice(0, 120) });
	}
	return choices;
}

const ASKING = /^(?:please\s+)?(?:ask|find out|check|confirm|enquire|inquire|learn|determine|establish|request)\b\s*(?:(?:the\s+)?(?:end[\s-]user|user|customer|person|client|caller|applicant|participant)|them|him or her)?\s*/i;
const WHO = String.raw`(?:they|he or she|he|she|the (?:end[\s-])?user|the customer|the person|the applicant)`;
const WH = new RegExp(String.raw`^(which|what|where|when|how|why|who|whose|whom)\b(.*?)\s+${WHO}\s+(.*)$`, 'i');
const YES_NO = new RegExp(String.raw`^(?:whether|if)\s+${WHO}\s+(.*)$`, 'i');
const AUX: Record<string, string> = { are: 'are', were: 'were', is: 'are', was: 'were', can: 'can', could: 'could', will: 'will', would: 'would', should: 'should', did: 'did', might: 'might', may: 'may' };
// "have" is an auxiliary before a participle ("have been", "has lived"), else a verb ("has a passport").
const PERFECT = new Set(['have', 'has', 'had']);

const toYou = (s: string) =>
	s
		.replace(/\bthemselves\b/gi, 'yourself')
		.replace(/\btheirs\b/gi, 'yours')
		.replace(/\b(?:their|his or her)\b/gi, 'your')
		.replace(/\bthem\b/gi, 'you')
		.replace(/\bthey\b/gi, 'you');

/** An inverted question from "they <aux|verb> rest": "are ready" → "are you ready", "live in" → "do you live in". */
function invert(clause: string): string | null {
	const [first = '', ...rest] = clause.split(' ');
	const aux = AUX[first.toLowerCase()] ?? (PERFECT.has(first.toLowerCase()) && /^(?:been|\w+(?:ed|en))$/i.test(rest[0] ?? '') ? 'have' : undefined);
	if (aux) return `${aux} you ${toYou(rest.join(' '))}`;
	if (PERFECT.has(first.toLowerCase()) && first.toLowerCase() === 'had') return null;
	// A past tense ("which school they attended") has no safe rule here: better not phrased at all.
	if (!first || /ed$/i.test(first)) return null;
	return `do you ${firstPerson(first)} ${toYou(rest.join(' '))}`;
}

/**
 * A goal prompt ("Ask the user which country they live in") as the question it asks, or null when
 * it is not a question this can form. English only.
 */
export function questionFromInstruction(prompt: string): string | null {
	const sentence = tidy(prompt.replace(/\s+/g, ' ')).split(/(?<=[.!?])\s+/).find((s) => ASKING.test(s) || /\?$/.test(s));
	if (!sentence) return null;
	if (/\?$/.test(sentence) && !ASKING.test(sentence)) {
		// Already a question; addressed to the user unless it talks about them.
		return /\b(?:the user|the customer|they|their)\b/i.test(sentence) ? null : sentence;
	}
	const rest = tidy(sentence.replace(ASKING, '').replace(/\?$/, ''));
	let question: string | null = null;
	const wh = WH.exec(rest);
	const yesNo = YES_NO.exec(rest);
	if (wh) {
		const inverted = invert(wh[3] ?? '');
		question = inverted && `${wh[1]}${toYou(wh[2] ?? '')} ${inverted}`;
	} else if (yesNo) question = invert(yesNo[1] ?? '');
	else if (/^(?:for|about)\s+(?:their|his or her|the)\s+\w/i.test(rest)) question = `What is ${toYou(rest.replace(/^(?:for|about)\s+/i, '').replace(/^the\b/i, 'your'))}`;
	else if (/^to\s+\w/i.test(rest)) return `${capitalise(toYou(rest.replace(/^to\s+/i, 'please ')))}.`;
	if (!question) return null;
	return `${capitalise(tidy(question))}?`;
}
