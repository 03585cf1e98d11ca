import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageState } from '#lib/domain/page/page.schema.ts';
import { createTestApp, manualClock } from '../../../../../../tests/helpers/test-store.ts';
import type { ApiPrincipal } from '../../../repositories/account.repository.ts';
import type { PagePrincipal } from '../../page.service.ts';

/**
 * A conversation never traps the user, with the embedded engine (no LLM): questions are answered,
 * unreadable goals and conditions become choices, typing that gets nowhere turns into choices after
 * two tries, and the user can always stop.
 */
const tail = [
	{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'bye', canceled: 'bye' } },
	{ id: 'bye', type: 'end' }
];
const flowWith = (prompt: string, conditions: string[]) => [
	{ id: 'start', type: 'start', outcome: 'talk' },
	{ id: 'talk', type: 'conversation', prompt, outcomes: conditions.map((condition, i) => ({ id: `o${i}`, condition, targetNodeId: i === 0 ? 'email' : 'bye' })) },
	...tail
];
const COUNTRY = flowWith('Ask the user which country they live in', ['The user says they live in Germany', 'The user lives elsewhere']);
const READY = flowWith('Greet the user and ask whether they are ready', ['The user is ready', 'The user declines']);

describe('conversation: a way forward', () => {
	let app: Awaited<ReturnType<typeof createTestApp>>;
	let integrator: ApiPrincipal;
	beforeAll(async () => {
		app = await createTestApp('pglite', {}, manualClock());
		integrator = (await app.accounts.authenticate((await app.accounts.createApiKey(await app.accounts.createAccount('Int'), 'test')).key))!;
	});
	afterAll(() => app?.dispose());

	async function open(flow: unknown[], lang = 'en') {
		const { result } = await app.sessions.create(integrator, { clientReferenceId: 'talk', flow, langs: [lang] });
		const opened = await app.pages.open({ clientSecret: result.clientSecret.secret, languages: [lang] });
		const principal: PagePrincipal = await app.pages.authenticate(`Bearer ${opened.pageToken}`);
		let n = 0;
		const act = (state: PageState, action: string, payload: Record<string, unknown> = {}) =>
			app.pages.submit(principal, state.node!.id, { step: state.session.step, requestId: `req-${++n}-${Date.now()}`, action, payload });
		return { id: result.session.id, state: opened.state, act };
	}
	const reportsOf = async (id: string) => (await app.uow.repos.nodeReports.list(id)).map((r) => [r.nodeId, r.outcome, r.targetNodeId, r.details]);

	it('asks an unknown goal as a question and offers conditions it cannot judge as answers, at once', async () => {
		const s = await open(COUNTRY);
		expect(s.state.node).toMatchObject({ id: 'talk', speech: 'Which country do you live in?' });
		expect((s.state.node!.props as Record<string, unknown>).choices).toEqual([
			{ id: 'o0', label: 'I live in Germany' },
			{ id: 'o1', label: 'I live elsewhere' }
		]);
		// An outcome the page was not offered, or not an id at all: refused, nothing moves or is heard.
		for (const outcomeId of ['nope', 42, { id: 'o1' }]) {
			const refused = await s.act(s.state, 'choose', { outcomeId });
			expect(refused.notice).toEqual({ code: 'conversation.choiceUnavailable' });
			expect(refused.state.node).toMatchObject({ id: 'talk' });
		}
		const picked = await s.act(s.state, 'choose', { outcomeId: 'o1' });
		expect(picked.state.finished?.status).toBe('complete');
		expect(await reportsOf(s.id)).toEqual([['talk', 'o1', 'bye', { reply: 'I live elsewhere', chosen: true }]]);
		const said = (await app.uow.repos.transcript.list(s.id)).map((p) => [p.isAvatar, p.text]);
		expect(said).toEqual([
			[true, 'Which country do you live in?'],
			[false, 'I live elsewhere']
		]);
	});

	it('answers questions before asking again, and offers the outcomes after two replies that got nowhere', async () => {
		const s = await open(READY);
		expect((s.state.node!.props as Record<string, unknown>).choices).toBeUndefined();
		// Agreeing and asking: the question is answered; the reply is not taken as a yes.
		const first = await s.act(s.state, 'reply', { text: 'yes but first tell me what you do with my data' });
		expect(first.notice).toEqual({ code: 'conversation.answered' });
		expect(first.state.node).toMatchObject({ id: 'talk' });
		expect(first.state.node!.speech).toMatch(/^What you share here.*goes to the service that asked for this check.*Are you ready to begin\?$/);
		expect((first.state.node!.props as Record<string, unknown>).choices).toBeUndefined();
		// Not choosable by the page before the choices are offered.
		const early = await s.act(first.state, 'choose', { outcomeId: 'o0' });
		expect(early.notice).toEqual({ code: 'conversation.choiceUnavailable' });
		expect(early.state.node).toMatchObject({ id: 'talk' });

		const second = await s.act(early.state, 'reply', { text: 'how long will this take?' });
		// Two steps ahead on the main path: this conversation and the e-mail.
		expect(second.state.node!.speech).toMatch(/^It takes a few minutes: 2 steps to go, this one included\. .*Are you ready to begin\?$/);
		expect((second.state.node!.props as Record<string, unknown>).choices).toEqual([
			{ id: 'o0', label: "Yes, I'm ready" },
			{ id: 'o1', label: 'No' }
		]);
		// Typing still works alongside the choices, typos and all.
		const typed = await s.act(second.state, 'reply', { text: 'yse im redy lets goo' });
		expect(typed.state.node).toMatchObject({ id: 'email' });
	});

	it('offers choices in the session language', async () => {
		const s = await open(READY, 'de');
		let state = s.state;
		for (const text of ['blub', 'hmm, keine Ahnung was das soll']) state = (await s.act(state, 'reply', { text })).state;
		// A word that answered nothing is not kept as the user's name (it used to greet "Hallo, blub!").
		expect(state.node!.speech).not.toContain('blub');
		expect((state.node!.props as Record<string, unknown>).choices).toEqual([
			{ id: 'o0', label: 'Ja, ich bin bereit' },
			{ id: 'o1', label: 'Nein' }
		]);
	});

	it('lets the user stop: the session ends incomplete and the node report says the user left', async () => {
		const s = await open(COUNTRY);
		const left = await s.act(s.state, 'leave');
		expect(left.state.finished?.status).toBe('incomplete');
		expect(left.state.node).toBeNull();
		expect((await app.sessions.get(integrator, s.id)).session.status).toBe('incomplete');
		expect(await reportsOf(s.id)).toEqual([['talk', 'userLeft', null, { reason: 'userLeft', misses: 0 }]]);
		// Over is over.
		await expect(s.act(s.state, 'reply', { text: 'Germany' })).rejects.toMatchObject({ status: 409 });
	});
});
