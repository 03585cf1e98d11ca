import { describe, expect, it } from 'vitest';
import { SUPPORTED_LANGS, type SupportedLang } from '#lib/domain/languages.ts';
import type { DialogState } from './dialog.types.ts';
import { analyzeReply, EmbeddedDialogEngine } from './embedded-dialog.engine.ts';

const NOW = new Date('2024-06-15T12:00:00Z');
const engine = new EmbeddedDialogEngine({ now: () => NOW });
const empty: DialogState = { transcript: [], data: {} };

interface LanguageCases {
	agree: string[];
	decline: string[];
	ready: string[];
	notReady: string[];
	name: [string, string][];
	email: [string, string][];
	number: [string, string][];
	date: [string, string][];
}

const CASES: Record<SupportedLang, LanguageCases> = {
	en: {
		agree: ['Yes', 'yeah sure', 'Of course, I agree', 'OK'],
		decline: ['No', 'No thanks', "I don't agree", 'Absolutely not'],
		ready: ["I'm ready", "Yes, let's go", 'ready to go'],
		notReady: ['Not yet', "I'm not ready", 'wait a moment please'],
		name: [['My name is Ada Lovelace', 'Ada Lovelace'], ["I'm John", 'John'], ['Maria', 'Maria']],
		email: [['ada@example.com', 'ada@example.com'], ['it is ada dot lovelace at example dot org', 'ada.lovelace@example.org']],
		number: [['I am 34', '34'], ['twenty five', '25'], ['seven', '7']],
		date: [['1990-03-15', '1990-03-15'], ['March 15, 1990', '1990-03-15'], ['the 15th of March 1990', '1990-03-15']]
	},
	it: {
		agree: ['Sì', 'Certo, va bene', "D'accordo"],
		decline: ['No', 'No, grazie', 'Non sono d’accordo'],
		ready: ['Sono pronto', 'Sì, cominciamo', 'Pronta!'],
		notReady: ['Non ancora', 'Aspetta un attimo', 'Non sono pronta'],
		name: [['Mi chiamo Giulia Rossi', 'Giulia Rossi'], ['Sono Marco', 'Marco']],
		email: [['giulia.rossi@esempio.it', 'giulia.rossi@esempio.it'], ['giulia chiocciola esempio punto it', 'giulia@esempio.it']],
		number: [['Ho 34 anni', '34'], ['ventitré', '23'], ['dodici', '12']],
		date: [['15/03/1990', '1990-03-15'], ['15 marzo 1990', '1990-03-15']]
	},
	de: {
		agree: ['Ja', 'Ja, gerne', 'Einverstanden'],
		decline: ['Nein', 'Nein danke', 'Auf keinen Fall'],
		ready: ['Ich bin bereit', 'Ja, los geht’s', 'Bereit'],
		notReady: ['Noch nicht', 'Einen Moment bitte', 'Ich bin nicht bereit'],
		name: [['Ich heiße Anna Müller', 'Anna Müller'], ['Mein Name ist Jonas', 'Jonas']],
		email: [['anna.mueller@beispiel.de', 'anna.mueller@beispiel.de'], ['anna punkt müller at beispiel punkt de', 'anna.müller@beispiel.de']],
		number: [['Ich bin 34 Jahre alt', '34'], ['dreiundzwanzig', '23'], ['zwölf', '12']],
		date: [['15.03.1990', '1990-03-15'], ['15. März 1990', '1990-03-15']]
	},
	fr: {
		agree: ['Oui', "D'accord", 'Oui, bien sûr'],
		decline: ['Non', 'Non merci', 'Je refuse'],
		ready: ['Je suis prêt', 'Oui, on y va', "C'est parti"],
		notReady: ['Pas encore', 'Attendez une minute', 'Je ne suis pas prête'],
		name: [["Je m'appelle Pierre Dupont", 'Pierre Dupont'], ['Moi c’est Camille', 'Camille']],
		email: [['pierre@exemple.fr', 'pierre@exemple.fr'], ['pierre arobase exemple point fr', 'pierre@exemple.fr']],
		number: [["J'ai 34 ans", '34'], ['vingt-trois', '23'], ['douze', '12']],
		date: [['15/03/1990', '1990-03-15'], ['le 15 mars 1990', '1990-03-15']]
	},
	es: {
		agree: ['Sí', 'Vale, de acuerdo', 'Claro que sí'],
		decline: ['No', 'No, gracias', 'Claro que no'],
		ready: ['Estoy listo', 'Sí, vamos', 'Empecemos'],
		notReady: ['Todavía no', 'Espera un momento', 'No estoy lista'],
		name: [['Me llamo Lucía García', 'Lucía García'], ['Soy Carlos', 'Carlos']],
		email: [['lucia@ejemplo.es', 'lucia@ejemplo.es'], ['lucia arroba ejemplo punto es', 'lucia@ejemplo.es']],
		number: [['Tengo 34 años', '34'], ['veintitrés', '23'], ['doce', '12']],
		date: [['15/03/1990', '1990-03-15'], ['15 de marzo de 1990', '1990-03-15']]
	},
	pt: {
		agree: ['Sim', 'Claro, tudo bem', 'Concordo'],
		decline: ['Não', 'Não, obrigado', 'De jeito nenhum'],
		ready: ['Estou pronto', 'Sim, vamos lá', 'Podemos começar'],
		notReady: ['Ainda não', 'Espera um minuto', 'Não estou pronta'],
		name: [['Meu nome é João Silva', 'João Silva'], ['Me chamo Ana', 'Ana']],
		email: [['joao@exemplo.com.br', 'joao@exemplo.com.br'], ['joao arroba exemplo ponto com', 'joao@exemplo.com']],
		number: [['Tenho 34 anos', '34'], ['vinte e três', '23'], ['doze', '12']],
		date: [['15/03/1990', '1990-03-15'], ['15 de março de 1990', '1990-03-15']]
	},
	ru: {
		agree: ['Да', 'Да, конечно', 'Хорошо'],
		decline: ['Нет', 'Нет, спасибо', 'Я не согласен'],
		ready: ['Я готов', 'Да, давайте начнём', 'Готова'],
		notReady: ['Ещё нет', 'Подождите минуту', 'Я не готова'],
		name: [['Меня зовут Иван Петров', 'Иван Петров'], ['Я Ольга', 'Ольга']],
		email: [['ivan@primer.ru', 'ivan@primer.ru'], ['ivan собака primer точка ru', 'ivan@primer.ru']],
		number: [['Мне 34 года', '34'], ['двадцать три', '23'], ['двенадцать', '12']],
		date: [['15.03.1990', '1990-03-15'], ['15 марта 1990 года', '1990-03-15']]
	},
	ja: {
		agree: ['はい', 'はい、同意します', 'もちろんです'],
		decline: ['いいえ', 'いいえ、結構です', '同意しません'],
		ready: ['準備できました', 'はい、始めましょう', 'いつでも大丈夫です'],
		notReady: ['まだです', 'ちょっと待ってください', '準備ができていません'],
		name: [['田中と申します', '田中'], ['私の名前は山田太郎です', '山田太郎']],
		email: [['tanaka@example.jp', 'tanaka@example.jp']],
		number: [['34歳です', '34'], ['二十三', '23'], ['十二', '12']],
		date: [['1990年3月15日', '1990-03-15'], ['1990/03/15', '1990-03-15']]
	},
	id: {
		agree: ['Ya', 'Iya, boleh', 'Setuju'],
		decline: ['Tidak', 'Tidak, terima kasih', 'Saya menolak'],
		ready: ['Saya siap', 'Ya, ayo mulai', 'Sudah siap'],
		notReady: ['Belum', 'Tunggu sebentar', 'Saya belum siap'],
		name: [['Nama saya Budi Santoso', 'Budi Santoso'], ['Saya Dewi', 'Dewi']],
		email: [['budi@contoh.co.id', 'budi@contoh.co.id']],
		number: [['Umur saya 34 tahun', '34'], ['dua puluh tiga', '23'], ['dua belas', '12']],
		date: [['15/03/1990', '1990-03-15'], ['15 Maret 1990', '1990-03-15']]
	},
	no: {
		agree: ['Ja', 'Ja, gjerne', 'Greit'],
		decline: ['Nei', 'Nei takk', 'Jeg vil ikke'],
		ready: ['Jeg er klar', 'Ja, la oss begynne', 'Klar!'],
		notReady: ['Ikke ennå', 'Vent litt', 'Jeg er ikke klar'],
		name: [['Jeg heter Ola Nordmann', 'Ola Nordmann'], ['Navnet mitt er Kari', 'Kari']],
		email: [['ola@eksempel.no', 'ola@eksempel.no'], ['ola krøllalfa eksempel punktum no', 'ola@eksempel.no']],
		number: [['Jeg er 34 år', '34'], ['tjuetre', '23'], ['tolv', '12']],
		date: [['15.03.1990', '1990-03-15'], ['15. mars 1990', '1990-03-15']]
	},
	zh: {
		agree: ['是的', '好的，没问题', '我同意'],
		decline: ['不', '不用了，谢谢', '我不同意'],
		ready: ['我准备好了', '好，开始吧', '可以开始了'],
		notReady: ['还没准备好', '等一下', '稍等'],
		name: [['我叫张伟', '张伟'], ['我的名字是李娜', '李娜']],
		email: [['zhang@example.cn', 'zhang@example.cn']],
		number: [['我今年34岁', '34'], ['二十三', '23'], ['十二', '12']],
		date: [['1990年3月15日', '1990-03-15'], ['1990-03-15', '1990-03-15']]
	},
	'zh-TW': {
		agree: ['是的', '好的，沒問題', '我同意'],
		decline: ['不要', '不用了，謝謝', '我不同意'],
		ready: ['我準備好了', '好，開始吧', '可以開始了'],
		notReady: ['還沒準備好', '等一下', '請稍等'],
		name: [['我叫陳怡君', '陳怡君'], ['我的名字是林志明', '林志明']],
		email: [['chen@example.com.tw', 'chen@example.com.tw']],
		number: [['我今年34歲', '34'], ['二十三', '23'], ['十二', '12']],
		date: [['1990年3月15日', '1990-03-15'], ['1990/03/15', '1990-03-15']]
	},
	'zh-HK': {
		agree: ['係', '好呀，冇問題', '我同意'],
		decline: ['唔好', '唔使喇，唔該', '我唔同意'],
		ready: ['我準備好喇', '好，開始啦', '可以開始喇'],
		notReady: ['未準備好', '等陣', '仲未得'],
		name: [['我叫陳大文', '陳大文'], ['我個名叫黃小明', '黃小明']],
		email: [['wong@example.com.hk', 'wong@example.com.hk']],
		number: [['我今年34歲', '34'], ['二十三', '23'], ['十二', '12']],
		date: [['1990年3月15日', '1990-03-15'], ['15/03/1990', '1990-03-15']]
	}
};

const AGREE_OR_DECLINE = [
	{ id: 'yes', condition: 'The user agrees' },
	{ id: 'no', condition: 'User said no' }
];
const READY_OR_DECLINE = [
	{ id: 'ready', condition: 'The user is ready' },
	{ id: 'declined', condition: 'The user declines' }
];

async function outcome(lang: SupportedLang, reply: string, outcomes: { id: string; condition: string }[], state = empty) {
	return (await engine.judge({ outcomes, lang, state, reply })).outcomeId;
}

describe.each(SUPPORTED_LANGS)('embedded judge in %s', (lang) => {
	const c = CASES[lang];
	it.each(c.agree)('agree: %s', async (reply) => expect(await outcome(lang, reply, AGREE_OR_DECLINE)).toBe('yes'));
	it.each(c.decline)('decline: %s', async (reply) => expect(await outcome(lang, reply, AGREE_OR_DECLINE)).toBe('no'));
	it.each(c.ready)('ready: %s', async (reply) => expect(await outcome(lang, reply, READY_OR_DECLINE)).toBe('ready'));
	it.each(c.notReady)('not ready asks again: %s', async (reply) => {
		expect(await outcome(lang, reply, READY_OR_DECLINE)).toBeNull();
		expect(await outcome(lang, reply, [{ id: 'wait', condition: 'The user is not ready' }])).toBe('wait');
	});
	it.each(c.name)('name: %s', async (reply, name) => {
		const result = await engine.judge({ outcomes: [{ id: 'n', condition: 'The user provided their name' }], lang, state: empty, reply });
		expect(result).toEqual({ outcomeId: 'n', entities: expect.objectContaining({ name }) });
	});
	it.each(c.email)('email: %s', async (reply, email) => {
		const result = await engine.judge({ outcomes: [{ id: 'e', condition: 'email given' }], lang, state: empty, reply });
		expect(result.outcomeId).toBe('e');
		expect(result.entities.email).toBe(email);
	});
	it.each(c.number)('number: %s', async (reply, number) => {
		expect(analyzeReply(reply, lang, NOW).entities.number).toBe(number);
		expect(await outcome(lang, reply, [{ id: 'x', condition: 'The user gave a number' }])).toBe('x');
	});
	it.each(c.date)('date: %s', async (reply, date) => {
		expect(analyzeReply(reply, lang, NOW).entities.date).toBe(date);
	});
	it('does not read a refusal as agreement or a name as an answer', async () => {
		for (const reply of c.decline) expect(analyzeReply(reply, lang, NOW).intents.has('agree')).toBe(false);
		for (const [reply] of c.name) expect(await outcome(lang, reply, AGREE_OR_DECLINE)).toBeNull();
	});
});

describe('the demo flow in every language', () => {
	const greet = 'Greet the user and ask whether they are ready to begin';
	const english = { greet: 'Hello! Are you ready to begin?', thank: 'Thank you!' };

	it.each(SUPPORTED_LANGS)('%s', async (lang) => {
		const c = CASES[lang];
		const spoken = (await engine.speak({ prompt: greet, lang, state: empty })).text;
		expect(spoken.length).toBeGreaterThan(3);
		if (lang !== 'en') expect(spoken).not.toBe(english.greet);
		else expect(spoken).toBe(english.greet);
		const state: DialogState = { transcript: [{ id: 'p1', createdAt: 1, text: spoken, isAvatar: true }], data: {} };
		for (const reply of [...c.agree, ...c.ready]) expect(await outcome(lang, reply, READY_OR_DECLINE, state)).toBe('ready');
		for (const reply of c.decline) expect(await outcome(lang, reply, READY_OR_DECLINE, state)).toBe('declined');
		expect(await outcome(lang, 'qwertz', READY_OR_DECLINE, state)).toBeNull();
		const retry = (await engine.speak({ prompt: greet, lang, state: { ...state, attempt: 1 } })).text;
		expect(retry.length).toBeGreaterThan(spoken.length);
		expect(retry.endsWith(spoken)).toBe(true);
		const thanks = (await engine.speak({ prompt: 'Thank the user', lang, state })).text;
		expect(thanks.length).toBeGreaterThan(1);
		if (lang !== 'en') expect(thanks).not.toBe(english.thank);
	});
});

describe('speak', () => {
	it('says Say: prompts verbatim in every language', async () => {
		for (const lang of SUPPORTED_LANGS) {
			expect((await engine.speak({ prompt: 'Say:   Welcome to ACME!  ', lang, state: empty })).text).toBe('Welcome to ACME!');
			expect((await engine.speak({ prompt: 'say: hi', lang, state: { ...empty, attempt: 2 } })).text).toBe('hi');
		}
	});
	it.each([
		['Greet the user by name', 'Hello, Ada!'],
		['Ask the user for their full name', 'What is your name?'],
		['Ask for their e-mail address', 'What is your e-mail address?'],
		['Ask for the date of birth', 'What is your date of birth?'],
		['Ask the user to confirm their email address', 'Is that correct?'],
		['Explain that next we will take a selfie', "Next, we'll take a quick photo of your face."],
		['Tell the user the verification is complete, thank them and say goodbye', 'Your verification is complete. Thank you! Goodbye, and have a nice day!'],
		['Introduce yourself and ask whether the user consents to the processing', "I'm your virtual assistant, and I'll guide you through the verification. Do you agree to continue with the verification?"],
		// An instruction the phrasebook does not know is never read out: it becomes its question, or a request to pick.
		['Ask the user which country they live in', 'Which country do you live in?'],
		['Find out whether they have a valid passport', 'Do you have a valid passport?'],
		['Ask the user where they are from.', 'Where are you from?'],
		['Ask the user for their country of residence', 'What is your country of residence?'],
		['Sing a song about the weather', 'Please pick the answer that fits you below.']
	])('%s', async (prompt, text) => {
		const state: DialogState = { transcript: [], data: { providedData: { name: 'Ada Lovelace' } } };
		expect((await engine.speak({ prompt, lang: 'en', state })).text).toBe(text);
	});
	it('greets with a name the user said earlier', async () => {
		const state: DialogState = { transcript: [], data: { dialog: { name: 'Ola Nordmann' } } };
		expect((await engine.speak({ prompt: 'Greet the user', lang: 'no', state })).text).toBe('Hei, Ola!');
	});
	it('joins CJK sentences without spaces', async () => {
		expect((await engine.speak({ prompt: 'Greet the user and ask their name', lang: 'zh', state: empty })).text).toBe('您好！请问您叫什么名字？');
	});
});

describe('condition mapping', () => {
	it.each([
		['The user agrees', { kind: 'intent', intent: 'agree' }],
		['User said no', { kind: 'intent', intent: 'decline' }],
		['The user does not agree', { kind: 'intent', intent: 'decline' }],
		['the user has not agreed', { kind: 'not', of: { kind: 'intent', intent: 'agree' } }],
		['user is ready', { kind: 'intent', intent: 'ready' }],
		['The user is not ready yet', { kind: 'intent', intent: 'notReady' }],
		['The user declines', { kind: 'intent', intent: 'decline' }],
		['The user wants to stop', { kind: 'intent', intent: 'decline' }],
		['The user asks to repeat the question', { kind: 'intent', intent: 'repeat' }],
		['The user needs help', { kind: 'intent', intent: 'help' }],
		['The user is unsure', { kind: 'intent', intent: 'unsure' }],
		['The user provided their name', { kind: 'entity', entity: 'name' }],
		['email given', { kind: 'entity', entity: 'email' }],
		['No phone number given', { kind: 'not', of: { kind: 'entity', entity: 'phone' } }],
		['The user refuses to give their name', { kind: 'not', of: { kind: 'entity', entity: 'name' } }],
		['The user says their date of birth', { kind: 'entity', entity: 'date' }],
		['The user confirms their e-mail address', { kind: 'intent', intent: 'agree' }],
		["The user says 'blue'", { kind: 'says', text: 'blue' }],
		['The answer is unclear', { kind: 'unrecognized' }],
		['The user replied', { kind: 'replied' }],
		['Validation passed', { kind: 'validation', passed: true }],
		['The value is invalid', { kind: 'validation', passed: false }],
		['failed', { kind: 'validation', passed: false }],
		['otherwise', { kind: 'always' }],
		['Always', { kind: 'always' }],
		['default', { kind: 'always' }],
		['Anything else.', { kind: 'always' }],
		['*', { kind: 'always' }],
		['The user agrees and gives their name', { kind: 'all', of: [{ kind: 'intent', intent: 'agree' }, { kind: 'entity', entity: 'name' }] }],
		['The user says yes or is ready', { kind: 'any', of: [{ kind: 'intent', intent: 'agree' }, { kind: 'intent', intent: 'ready' }] }],
		['The moon is made of cheese', null],
		['The user is an adult', null]
	])('%s', (condition, predicate) => {
		expect(engine.conditionOf(condition)).toEqual(predicate);
	});

	it('never matches a condition it does not understand, but matches catch-alls', async () => {
		const outcomes = [
			{ id: 'cheese', condition: 'The moon is made of cheese' },
			{ id: 'rest', condition: 'Otherwise' }
		];
		expect(await outcome('en', 'yes', outcomes)).toBe('rest');
		expect(await outcome('en', '', outcomes)).toBe('rest');
	});

	it('takes the first matching outcome in array order', async () => {
		const outcomes = [
			{ id: 'name', condition: 'The user gave their name' },
			{ id: 'agree', condition: 'The user agrees' }
		];
		expect(await outcome('en', 'Yes, my name is Ada', outcomes)).toBe('name');
		expect(await outcome('en', 'Yes', outcomes)).toBe('agree');
	});

	it('judges data_validation outcomes on the last validation result', async () => {
		const outcomes = [
			{ id: 'ok', condition: 'Validation passed' },
			{ id: 'ko', condition: 'otherwise' }
		];
		const passed: DialogState = { ...empty, lastValidation: { field: 'providedData.email', action: 'isEmail', passed: true } };
		const failed: DialogState = { ...empty, lastValidation: { field: 'providedData.email', action: 'isEmail', passed: false, reason: 'notEmail' } };
		expect(await outcome('de', '', outcomes, passed)).toBe('ok');
		expect(await outcome('de', '', outcomes, failed)).toBe('ko');
		expect(await outcome('de', '', [{ id: 'bad', condition: 'The check failed' }], failed)).toBe('bad');
	});

	it('settles yes/no conflicts by the last thing said', () => {
		expect([...analyzeReply('No, wait, yes, I am ready', 'en', NOW).intents]).toEqual(expect.arrayContaining(['agree', 'ready']));
		expect(analyzeReply('No, wait, yes, I am ready', 'en', NOW).intents.has('decline')).toBe(false);
		expect(analyzeReply('Yes… actually no', 'en', NOW).intents.has('agree')).toBe(false);
		expect(analyzeReply('No problem', 'en', NOW).intents.has('decline')).toBe(false);
		expect(analyzeReply("I don't know", 'en', NOW).intents.has('decline')).toBe(false);
	});

	it('understands English replies in any session language', () => {
		for (const lang of SUPPORTED_LANGS) expect(analyzeReply('yes', lang, NOW).intents.has('agree')).toBe(true);
	});
});

describe('repeatPhrase', () => {
	it('says it did not understand in every language', () => {
		const lines = SUPPORTED_LANGS.map((lang) => engine.repeatPhrase(lang));
		expect(lines[0]).toBe("Sorry, I didn't catch that.");
		expect(new Set(lines.slice(1)).has(lines[0]!)).toBe(false);
		expect(lines.every((l) => l.length > 3)).toBe(true);
	});
});
