import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EmbeddedDialogEngine } from '#lib/server/services/dialog/embedded-dialog.engine.ts';
import type { SupportedLang, UserQuestion } from '#lib/server/services/dialog/dialog.types.ts';

/**
 * How the embedded judge routes the hand-written replies of tests/fixtures/dialog/replies.json
 * (written for evaluation, without looking at the lexicons). Each intent is put to the question it
 * answers, with the conditions an integrator would write for it; "right" is what a careful human
 * would do with the reply.
 */
export const REPLY_INTENTS = ['agree', 'decline', 'ready', 'notReady', 'unsure', 'askPurpose', 'askData', 'askDuration', 'agreeButAsk'] as const;
export type ReplyIntent = (typeof REPLY_INTENTS)[number];

const CONSENT = [
	{ id: 'yes', condition: 'The user agrees' },
	{ id: 'no', condition: 'The user declines' }
];
const READY = [
	{ id: 'yes', condition: 'The user is ready' },
	{ id: 'no', condition: 'The user is not ready' }
];

interface Expectation {
	outcomes: { id: string; condition: string }[];
	/** The outcome a human would pick; null: none (ask again). */
	outcome: string | null;
	/** The question to answer first, when the reply asks one ('any': whichever it asked). */
	question?: UserQuestion | 'any';
}

const EXPECT: Record<ReplyIntent, Expectation> = {
	agree: { outcomes: CONSENT, outcome: 'yes' },
	decline: { outcomes: CONSENT, outcome: 'no' },
	ready: { outcomes: READY, outcome: 'yes' },
	notReady: { outcomes: READY, outcome: 'no' },
	// Neither yes nor no: asked again (with what this is about); never taken as consent.
	unsure: { outcomes: CONSENT, outcome: null },
	askPurpose: { outcomes: CONSENT, outcome: null, question: 'purpose' },
	askData: { outcomes: CONSENT, outcome: null, question: 'data' },
	askDuration: { outcomes: CONSENT, outcome: null, question: 'duration' },
	agreeButAsk: { outcomes: CONSENT, outcome: null, question: 'any' }
};

export interface RoutingCell {
	total: number;
	right: number;
	/** Replies taken as consent or readiness that were not ("yes" where a human hears no or a question). */
	falseYes: number;
	wrong: { reply: string; got: string }[];
}

export function loadReplies(): Record<string, Record<ReplyIntent, string[]>> {
	const file = path.resolve(import.meta.dirname, '../fixtures/dialog/replies.json');
	const { _about, ...langs } = JSON.parse(readFileSync(file, 'utf8'));
	void _about;
	return langs;
}

export async function routeReplies(): Promise<Record<string, Record<ReplyIntent, RoutingCell>>> {
	const engine = new EmbeddedDialogEngine({ now: () => new Date('2026-06-01T12:00:00Z') });
	const out: Record<string, Record<ReplyIntent, RoutingCell>> = {};
	for (const [lang, intents] of Object.entries(loadReplies())) {
		out[lang] = {} as Record<ReplyIntent, RoutingCell>;
		for (const intent of REPLY_INTENTS) {
			const expect = EXPECT[intent];
			const cell: RoutingCell = { total: 0, right: 0, falseYes: 0, wrong: [] };
			for (const reply of intents[intent] ?? []) {
				const judged = await engine.judge({ outcomes: expect.outcomes, lang: lang as SupportedLang, state: { transcript: [], data: {} }, reply });
				// "What is this for?" answered as an unrecognised question still gets the purpose (answerFor).
				const asked = expect.question === 'purpose' && judged.question === 'other' ? 'purpose' : judged.question;
				const questionOk = expect.question === undefined ? true : expect.question === 'any' ? asked !== undefined : asked === expect.question;
				const right = judged.outcomeId === expect.outcome && questionOk;
				cell.total++;
				if (right) cell.right++;
				else cell.wrong.push({ reply, got: `${judged.outcomeId ?? 'none'}${judged.question ? `+${judged.question}` : ''}` });
				if (judged.outcomeId === 'yes' && expect.outcome !== 'yes') cell.falseYes++;
			}
			out[lang][intent] = cell;
		}
	}
	return out;
}

/** The routing as a Markdown table: share right per language and intent, and false yeses. */
export function routingTable(result: Awaited<ReturnType<typeof routeReplies>>): string {
	const pct = (a: number, b: number) => (b ? `${Math.round((100 * a) / b)} %` : '–');
	const lines = [`| lang | ${REPLY_INTENTS.join(' | ')} | all | false yes |`, `|---|${REPLY_INTENTS.map(() => '---').join('|')}|---|---|`];
	for (const [lang, cells] of Object.entries(result)) {
		const all = Object.values(cells).reduce((s, c) => ({ right: s.right + c.right, total: s.total + c.total, falseYes: s.falseYes + c.falseYes }), { right: 0, total: 0, falseYes: 0 });
		const noYes = REPLY_INTENTS.filter((i) => EXPECT[i].outcome !== 'yes').reduce((s, i) => s + cells[i].total, 0);
		lines.push(`| ${lang} | ${REPLY_INTENTS.map((i) => pct(cells[i].right, cells[i].total)).join(' | ')} | ${pct(all.right, all.total)} | ${all.falseYes}/${noYes} (${pct(all.falseYes, noYes)}) |`);
	}
	return lines.join('\n');
}
