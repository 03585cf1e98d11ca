import type { NodeContext, NodeHandler } from '../node-handler.ts';
import { sessionDataView } from './session-data.ts';

const MAX_REPLY = 2000;

async function stateOf(ctx: NodeContext<'conversation'>) {
	return { transcript: await ctx.transcript(), data: sessionDataView(ctx.session, ctx.data), lastValidation: ctx.data.lastValidation as never };
}

/**
 * `conversation`: the avatar speaks the prompt (`Say:` verbatim, otherwise turned into speech in
 * the session language by the dialog engine); the user's reply is judged against the outcomes in
 * order. No match → the avatar asks again. `doesNotRequireReply` nodes are acknowledged by the
 * page once spoken and take their first outcome.
 */
export const conversationHandler: NodeHandler<'conversation'> = {
	async enter(ctx) {
		const { text } = await ctx.deps.dialog.speak({ prompt: ctx.node.prompt, lang: ctx.lang, state: await stateOf(ctx) });
		await ctx.say(text);
	},
	actions: {
		async reply(ctx, payload) {
			if (ctx.node.doesNotRequireReply) return { notice: { code: 'conversation.noReplyNeeded' } };
			const text = typeof payload.text === 'string' ? payload.text.trim().slice(0, MAX_REPLY) : '';
			if (!text) return { notice: { code: 'conversation.empty' } };
			await ctx.hear(text);
			const judged = await ctx.deps.dialog.judge({
				outcomes: ctx.node.outcomes.map((o) => ({ id: o.id, condition: o.condition })),
				lang: ctx.lang,
				state: await stateOf(ctx),
				reply: text
			});
			const entities = Object.fromEntries(Object.entries(judged.entities).filter(([k, v]) => /^[A-Za-z][A-Za-z0-9_]{0,40}$/.test(k) && typeof v === 'string').map(([k, v]) => [k, v.slice(0, 500)]));
			if (Object.keys(entities).length) ctx.data.dialog = { ...((ctx.data.dialog as Record<string, string>) ?? {}), ...entities };
			if (judged.outcomeId && ctx.node.outcomes.some((o) => o.id === judged.outcomeId)) {
				return { finish: { outcome: judged.outcomeId, details: { reply: text, ...(Object.keys(entities).length ? { entities } : {}) } } };
			}
			// No condition holds: the avatar asks again (the same goal, so the user hears it anew).
			const again = await ctx.deps.dialog.speak({ prompt: ctx.node.prompt, lang: ctx.lang, state: await stateOf(ctx) });
			await ctx.say(`${ctx.deps.dialog.repeatPhrase(ctx.lang)} ${again.text}`.trim());
			return { notice: { code: 'conversation.repeat' } };
		},
		async ack(ctx) {
			if (!ctx.node.doesNotRequireReply) return { notice: { code: 'conversation.replyNeeded' } };
			return { finish: { outcome: ctx.node.outcomes[0].id } };
		}
	}
};
