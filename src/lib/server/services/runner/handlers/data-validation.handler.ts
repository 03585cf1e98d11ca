import { evaluateValidation } from '#lib/domain/data-validation.ts';
import { ESTIMATED_AGE_KEY } from '#lib/domain/flow/modules-to-flow.ts';
import type { NodeHandler } from '../node-handler.ts';
import { sessionDataView } from './session-data.ts';

/**
 * `data_validation` runs on the server as soon as it is reached: the validation result joins the
 * dialog state and the conditional outcomes are judged on it in order. When no condition holds,
 * the last outcome is taken, so a validation node never strands a session.
 */
export const dataValidationHandler: NodeHandler<'data_validation'> = {
	async enter(ctx) {
		const result = evaluateValidation(ctx.node.validation, sessionDataView(ctx.session, ctx.data), new Date(ctx.now));
		ctx.data.lastValidation = { field: ctx.node.validation.field, action: ctx.node.validation.action, ...result };
		const judged = await ctx.deps.dialog.judge({
			outcomes: ctx.node.outcomes.map((o) => ({ id: o.id, condition: o.condition })),
			lang: ctx.lang,
			state: { transcript: await ctx.transcript(), data: ctx.data, lastValidation: result },
			reply: ''
		});
		const outcome = judged.outcomeId ?? ctx.node.outcomes[ctx.node.outcomes.length - 1].id;
		// The server's own age estimate is no user input: the report shows what the check compared.
		const estimated = ctx.node.validation.field.startsWith(`${ESTIMATED_AGE_KEY}.estimatedAge`) ? { estimatedAge: ctx.data[ESTIMATED_AGE_KEY] ?? null, value: ctx.node.validation.value } : {};
		return { outcome, details: { field: ctx.node.validation.field, action: ctx.node.validation.action, passed: result.passed, ...estimated, ...(judged.outcomeId ? {} : { fallback: true }) } };
	}
};
