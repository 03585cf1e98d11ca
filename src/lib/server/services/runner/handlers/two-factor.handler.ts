import type { TwoFactorType } from '#lib/domain/flow/node-types.ts';
import { twoFactorSettingsOf } from '#lib/domain/nodes/two-factor.contract.ts';
import { randomInt } from 'node:crypto';
import type { NodeOf } from '#lib/domain/flow/flow.schema.ts';
import { hmacHex, newId, safeEqual } from '../../../crypto.ts';
import type { Passcode } from '../../../repositories/passcode.repository.ts';
import { passcodeMessage } from '../../otp/otp-messages.ts';
import type { ActionResult, NodeContext, NodeHandler } from '../node-handler.ts';

type Ctx = NodeContext<TwoFactorType>;
type Channel = 'email' | 'sms';

/** Sends of one node, the first included; past this the user must cancel or use another channel. */
const MAX_SENDS = 5;

const settingsOf = twoFactorSettingsOf;

export const channelsOf = (node: NodeOf<TwoFactorType>): Channel[] =>
	node.type === 'two_factor' ? node.channels : node.type === 'two_factor_email' ? ['email'] : ['sms'];

/** Where a code for this channel goes, from the node's contactSource (or its testMode). */
export function destinationOf(ctx: Ctx, channel: Channel): string | null {
	const node = ctx.node;
	if (node.testMode?.enabled) {
		const test = channel === 'email' ? node.testMode.email : node.testMode.phone;
		if (test) return test;
	}
	const provided = ctx.session.settings.providedData ?? {};
	const source = node.contactSource ?? 'session_data';
	if (source === 'module_settings') return (channel === 'email' ? node.staticEmail : node.staticPhone) ?? null;
	if (source === 'recognition_match') {
		const match = ctx.data.recognition as { contact?: { email?: string; phone?: string } } | undefined;
		return (channel === 'email' ? match?.contact?.email : match?.contact?.phone) ?? null;
	}
	const value = channel === 'email' ? (ctx.data.email ?? provided.email) : (ctx.data.phone ?? provided.phone ?? provided.phoneNumber);
	return typeof value === 'string' && value ? value : null;
}

/** Shows enough of the destination to recognise it, not enough to learn it. */
export function maskDestination(channel: Channel, to: string): string {
	if (channel === 'email') {
		const [local, domain] = to.split('@');
		// A fixed mask: the number of dots must not tell the address's length.
		return `${local.slice(0, 1)}•••@${domain}`;
	}
	const digits = to.replace(/[^\d+]/g, '');
	return `${digits.slice(0, digits.startsWith('+') ? 3 : 1)} ••• ••${digits.slice(-2)}`;
}

const codeHash = (ctx: Ctx, otpId: string, code: string) => hmacHex(ctx.deps.keys.otpKey, `${otpId}.${code}`);

/** Creates a code for the channel and schedules its sending after the transaction commits. */
async function issue(ctx: Ctx, channel: Channel, previous: Passcode | null): Promise<ActionResult> {
	const s = settingsOf(ctx.node);
	const to = destinationOf(ctx, channel);
	if (!to) return { finish: { outcome: 'error', details: { reason: 'no_contact', channel, contactSource: ctx.node.contactSource ?? 'session_data' } } };
	const code = String(randomInt(0, 10 ** s.otpLength)).padStart(s.otpLength, '0');
	const id = newId('otp');
	if (previous && !previous.verifiedAt) await ctx.repos.passcodes.update(previous.id, { expiresAt: Math.min(previous.expiresAt, ctx.now) });
	await ctx.repos.passcodes.insert({
		id,
		sessionId: ctx.session.id,
		nodeId: ctx.node.id,
		channel,
		destination: to,
		codeHash: codeHash(ctx, id, code),
		createdAt: ctx.now,
		expiresAt: ctx.now + s.expirySeconds * 1000,
		maxAttempts: s.maxAttempts,
		// Attempts and sends carry over: a resend must not reset the brute-force budget.
		attempts: previous?.attempts ?? 0,
		sentCount: (previous?.sentCount ?? 0) + 1,
		lastSentAt: ctx.now
	});
	const message = passcodeMessage(ctx.lang, code, s.expirySeconds, channel === 'email' ? ctx.node.emailTemplate : ctx.node.smsTemplate);
	const { session, deps } = ctx;
	ctx.afterCommit(async () => {
		const result = await deps.otp.send(
			{ channel, to, subject: message.subject, text: message.text, sessionId: session.id, accountId: session.accountId, env: session.env },
			{ sandboxOnly: s.testMode }
		);
		if (result.delivered) return;
		await deps.uow.repos.passcodes.update(id, { deliveryError: result.error ?? 'failed' });
		return { finish: { outcome: 'delivery_failed', details: { channel, error: result.error } } };
	});
	return {};
}

/**
 * Two-factor nodes: a code of `otpLength` digits, stored as an HMAC, valid `expirySeconds`, at most
 * `maxAttempts` wrong tries across resends (then `failed_unverified`), a resend only after
 * `resendAfterSeconds`. The first code is sent when the node is entered.
 */
export const twoFactorHandler: NodeHandler<TwoFactorType> = {
	async enter(ctx) {
		const result = await issue(ctx, channelsOf(ctx.node).find((c) => destinationOf(ctx, c)) ?? channelsOf(ctx.node)[0], null);
		return result.finish;
	},
	async view(ctx) {
		const s = settingsOf(ctx.node);
		const otp = await ctx.repos.passcodes.latest(ctx.session.id, ctx.node.id);
		const channels = channelsOf(ctx.node).filter((c) => destinationOf(ctx, c));
		return {
			showUI: s.showUI,
			otpLength: s.otpLength,
			channels,
			channel: otp?.channel ?? null,
			destination: otp ? maskDestination(otp.channel, otp.destination) : null,
			expiresAt: otp?.expiresAt ?? null,
			resendAvailableAt: otp ? otp.lastSentAt + s.resendAfterSeconds * 1000 : null,
			attemptsLeft: otp ? Math.max(0, otp.maxAttempts - otp.attempts) : s.maxAttempts,
			sendsLeft: otp ? Math.max(0, MAX_SENDS - otp.sentCount) : MAX_SENDS,
			testMode: s.testMode
		};
	},
	actions: {
		async verify(ctx, payload): Promise<ActionResult> {
			const s = settingsOf(ctx.node);
			const code = typeof payload.code === 'string' ? payload.code.replace(/\s+/g, '') : '';
			const otp = await ctx.repos.passcodes.latest(ctx.session.id, ctx.node.id);
			if (!otp) return { notice: { code: 'otp.notSent' } };
			if (!/^\d+$/.test(code) || code.length !== s.otpLength) return { notice: { code: 'otp.format', params: { length: s.otpLength } } };
			if (otp.lockedAt) return { finish: { outcome: 'failed_unverified', details: { reason: 'locked' } } };
			if (ctx.now >= otp.expiresAt) return { notice: { code: 'otp.expired' } };
			const attempts = otp.attempts + 1;
			// Compare in constant time; the attempt counts whether right or wrong.
			const right = safeEqual(codeHash(ctx, otp.id, code), otp.codeHash);
			if (right) {
				await ctx.repos.passcodes.update(otp.id, { attempts, verifiedAt: ctx.now });
				ctx.data.verifiedContacts = { ...((ctx.data.verifiedContacts as Record<string, string>) ?? {}), [otp.channel]: otp.destination };
				return { finish: { outcome: 'verified', details: { channel: otp.channel, attempts } } };
			}
			if (attempts >= otp.maxAttempts) {
				await ctx.repos.passcodes.update(otp.id, { attempts, lockedAt: ctx.now });
				return { finish: { outcome: 'failed_unverified', details: { channel: otp.channel, attempts } } };
			}
			await ctx.repos.passcodes.update(otp.id, { attempts });
			return { notice: { code: 'otp.wrong', params: { attemptsLeft: otp.maxAttempts - attempts } } };
		},
		async resend(ctx, payload): Promise<ActionResult> {
			const s = settingsOf(ctx.node);
			const otp = await ctx.repos.passcodes.latest(ctx.session.id, ctx.node.id);
			const requested = payload.channel === 'email' || payload.channel === 'sms' ? payload.channel : otp?.channel;
			const channel = requested && channelsOf(ctx.node).includes(requested) ? requested : channelsOf(ctx.node)[0];
			if (otp) {
				if (otp.lockedAt) return { finish: { outcome: 'failed_unverified', details: { reason: 'locked' } } };
				const wait = otp.lastSentAt + s.resendAfterSeconds * 1000 - ctx.now;
				if (wait > 0) return { notice: { code: 'otp.resendWait', params: { seconds: Math.ceil(wait / 1000) } } };
				if (otp.sentCount >= MAX_SENDS) return { notice: { code: 'otp.tooManySends' } };
			}
			const result = await issue(ctx, channel, otp);
			return result.finish ? result : { notice: { code: 'otp.sent' } };
		},
		async cancel(): Promise<ActionResult> {
			return { finish: { outcome: 'cancelled' } };
		}
	}
};
