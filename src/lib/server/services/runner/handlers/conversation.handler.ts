import { flowProgress } from '#lib/domain/flow/flow-progress.ts';
import type { Choice } from '../../dialog/index.ts';
import type { NodeContext, NodeHandler } from '../node-handler.ts';
import { sessionDataView } from './session-data.ts';

type Ctx = NodeContext<'conversation'>;

const MAX_REPLY = 2000;
/** Replies that matched nothing before the outcomes are offered as choices. */
export const MISSES_BEFORE_CHOICES = 2;

interface ConversationNodeState {
	/** Replies that matched no outcome (questions included). */
	misses: number;
	/** The engine could not put the goal into words for this user: choices from the start. */
	unphrased?: boolean;
}

const STATE_KEY = 'conversationNodes';

function nodeState(ctx: Ctx): ConversationNodeState {
	return ((ctx.data[STATE_KEY] ?? {}) as Record<string, ConversationNodeState>)[ctx.node.id] ?? { misses: 0 };
}

function setNodeState(ctx: Ctx, state: ConversationNodeState): void {
	ctx.data[STATE_KEY] = { ...((ctx.data[STATE_KEY] as Record<string, ConversationNodeState>) ?? {}), [ctx.node.id]: state };
}

async function dialogState(ctx: Ctx) {
	return { transcript: await ctx.transcript(), data: sessionDataView(ctx.session, ctx.data), lastValidation: ctx.data.lastValidation as never };
}

const outcomesOf = (ctx: Ctx) => ctx.node.outcomes.map((o) => ({ id: o.id, condition: o.condition }));

/**
 * The outcomes as answers to pick, once typing has not got the user anywhere: after
 * MISSES_BEFORE_CHOICES replies that matched nothing, or at once when the engine cannot judge one
 * of the conditions from a reply (that outcome could never be reached by typing) or could not
 * phrase the goal. Null while typing is still the way.
 */
function offeredChoices(ctx: Ctx): Choice[] | null {
	if (ctx.node.doesNotRequireReply) return null;
	const state = nodeState(ctx);
	const stuck = state.misses >= MISSES_BEFORE_CHOICES || state.unphrased === true || ctx.node.outcomes.some((o) => !ctx.deps.dialog.canJudge(o.condition));
	return stuck ? ctx.deps.dialog.choices(outcomesOf(ctx), ctx.lang) : null;
}

/** Steps still ahead along the main path, this one included (for "how long will this take?"). */
function stepsLeft(ctx: Ctx): number | null {
	const progress = flowProgress(ctx.session.flow, ctx.node.id);
	return progress ? progress.total - progress.current + 1 : null;
}

/**
 * `conversation`: the avatar speaks the prompt (`Say:` verbatim, otherwise turned into speech in
 * the session language by the dialog engine); the user's reply is judged against the outcomes in
 * order. No match → the avatar asks again; a question ("what is this for?") is answered first.
 * The user is never trapped: the outcomes become choices (see `offeredChoices`), and `leave` ends
 * the session as the user's decision. `doesNotRequireReply` nodes are acknowledged by the page
 * once spoken and take their first outcome.
 */
export const conversationHandler: NodeHandler<'conversation'> = {
	async enter(ctx) {
		const { text, phrased } = await ctx.deps.dialog.speak({ prompt: ctx.node.prompt, lang: ctx.lang, state: await dialogState(ctx) });
		setNodeState(ctx, { misses: 0, ...(phrased === false ? { unphrased: true } : {}) });
		await ctx.say(text);
	},
	view(ctx) {
		const choices = offeredChoices(ctx);
		return choices ? { choices } : {};
	},
	actions: {
		async reply(ctx, payload) {
			if (ctx.node.doesNotRequireReply) return { notice: { code: 'conversation.noReplyNeeded' } };
			const text = typeof payload.text === 'string' ? payload.text.trim().slice(0, MAX_REPLY) : '';
			if (!text) return { notice: { code: 'conversation.empty' } };
			await ctx.hear(text);
			const judged = await ctx.deps.dialog.judge({ outcomes: outcomesOf(ctx), lang: ctx.lang, state: await dialogState(ctx), reply: text });
			const entities = Object.fromEntries(Object.entries(judged.entities).filter(([k, v]) => /^[A-Za-z][A-Za-z0-9_]{0,40}$/.test(k) && typeof v === 'string').map(([k, v]) => [k, v.slice(0, 500)]));
			if (judged.outcomeId && ctx.node.outcomes.some((o) => o.id === judged.outcomeId)) {
				// Only a reply that answered keeps what it contained: "blub" to "are you ready?" is not a name.
				if (Object.keys(entities).length) ctx.data.dialog = { ...((ctx.data.dialog as Record<string, string>) ?? {}), ...entities };
				return { finish: { outcome: judged.outcomeId, details: { reply: text, ...(Object.keys(entities).length ? { entities } : {}) } } };
			}
			const state = nodeState(ctx);
			setNodeState(ctx, { ...state, misses: state.misses + 1 });
			// A question is answered, then the prompt is asked again; anything else gets "sorry" first.
			const again = await ctx.deps.dialog.speak({ prompt: ctx.node.prompt, lang: ctx.lang, state: await dialogState(ctx) });
			const before = judged.question ? ctx.deps.dialog.answer(judged.question, ctx.lang, { stepsLeft: stepsLeft(ctx) }) : ctx.deps.dialog.repeatPhrase(ctx.lang);
			await ctx.say(`${before} ${again.text}`.trim());
			return { notice: { code: judged.question ? 'conversation.answered' : 'conversation.repeat' } };
		},
		/** The user picked one of the offered choices (only while they are offered). */
		async choose(ctx, payload) {
			const choices = offeredChoices(ctx);
			const picked = choices?.find((c) => c.id === payload.outcomeId);
			if (!picked) return { notice: { code: 'conversation.choiceUnavailable' } };
			await ctx.hear(picked.label);
			return { finish: { outcome: picked.id, details: { reply: picked.label, chosen: true } } };
		},
		/** The user stops here: the session ends incomplete, by their choice, with a node report saying so. */
		async leave(ctx) {
			if (ctx.node.doesNotRequireReply) return { notice: { code: 'conversation.noReplyNeeded' } };
			return { leave: { reason: 'userLeft', details: { misses: nodeState(ctx).misses } } };
		},
		async ack(ctx) {
			if (!ctx.node.doesNotRequireReply) return { notice: { code: 'conversation.replyNeeded' } };
			return { finish: { outcome: ctx.node.outcomes[0].id } };
		}
	}
};
