import { describe, expect, it } from 'vitest';
import { REPLY_INTENTS, routeReplies, routingTable } from '../helpers/reply-routing.ts';

/**
 * The embedded judge on 3,591 replies written by hand for evaluation (tests/fixtures/dialog/replies.json,
 * six languages, ≥ 60 per intent). Floors sit a little under what it measured when this was written
 * (README, "What the embedded dialog engine understands"): a change that makes it worse fails here,
 * and the worst error, taking a reply as a yes that was not one, has a floor of its own.
 */
describe('embedded dialog judge on the reply table', async () => {
	const result = await routeReplies();

	it('has at least 60 replies per intent in each of six languages', () => {
		expect(Object.keys(result).sort()).toEqual(['de', 'en', 'es', 'fr', 'ja', 'pt']);
		for (const cells of Object.values(result)) for (const intent of REPLY_INTENTS) expect(cells[intent].total).toBeGreaterThanOrEqual(60);
	});

	it.each(['en', 'de', 'fr', 'es', 'ja', 'pt'])('routes most replies right in %s, and almost never hears a yes that was not said', (lang) => {
		const cells = Object.values(result[lang]!);
		const right = cells.reduce((s, c) => s + c.right, 0) / cells.reduce((s, c) => s + c.total, 0);
		// Share of the replies that were not a yes (everything but agree and ready) taken as one.
		const notYes = cells.reduce((s, c) => s + c.total, 0) - result[lang]!.agree.total - result[lang]!.ready.total;
		const falseYes = cells.reduce((s, c) => s + c.falseYes, 0) / notYes;
		expect(right, routingTable(result)).toBeGreaterThanOrEqual(0.62);
		expect(falseYes, routingTable(result)).toBeLessThanOrEqual(0.03);
	});

	it('answers a yes that comes with a question before taking it as a yes', () => {
		for (const cells of Object.values(result)) expect(cells.agreeButAsk.right / cells.agreeButAsk.total).toBeGreaterThanOrEqual(0.9);
	});
});
