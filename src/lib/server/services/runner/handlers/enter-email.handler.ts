import { isEmail } from '#lib/domain/data-validation.ts';
import type { NodeHandler } from '../node-handler.ts';

/** `enter_email`: the address joins the session data (`email`) for later nodes (two-factor, validation). */
export const enterEmailHandler: NodeHandler<'enter_email'> = {
	view(ctx) {
		const provided = ctx.session.settings.providedData;
		const prefill = typeof ctx.data.email === 'string' ? ctx.data.email : provided?.email;
		return prefill && isEmail(prefill) ? { prefill } : {};
	},
	actions: {
		async submit(ctx, payload) {
			const email = typeof payload.email === 'string' ? payload.email.trim() : '';
			if (!email || email.length > 254 || !isEmail(email)) return { notice: { code: 'email.invalid' } };
			ctx.data.email = email.toLowerCase() === email ? email : email.replace(/@.*/, (domain) => domain.toLowerCase());
			return { finish: { outcome: 'emailEntered' } };
		},
		async cancel() {
			return { finish: { outcome: 'canceled' } };
		}
	}
};
