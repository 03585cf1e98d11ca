import nodemailer, { type Transporter } from 'nodemailer';
import { newId } from '../../crypto.ts';
import { logger } from '../../logger.ts';
import type { UnitOfWork } from '../../repositories/index.ts';

export interface OutgoingMessage {
	channel: 'email' | 'sms';
	to: string;
	subject?: string;
	text: string;
	sessionId: string;
	accountId: string;
	env: 'test' | 'live';
}

export interface DeliveryResult {
	delivered: boolean;
	/** Kept in the sandbox outbox (test keys), readable through GET /api/sandbox/messages. */
	sandbox: boolean;
	error?: string;
}

export interface OtpDelivery {
	send(message: OutgoingMessage, options?: { sandboxOnly?: boolean }): Promise<DeliveryResult>;
}

export interface DeliveryConfig {
	smtpUrl?: string;
	smtpFrom: string;
	smsWebhookUrl?: string;
	uow: UnitOfWork;
	now: () => number;
	fetch?: typeof fetch;
}

/**
 * E-mail through SMTP (nodemailer) when SMTP_URL is set, SMS through an HTTP gateway when
 * SMS_WEBHOOK_URL is set, for live sessions only. Sandbox sessions (test keys) put every passcode in
 * the sandbox outbox and nowhere else, so integrators and tests can read the code and nobody can use a
 * test key to mail strangers; a node's `testMode` sends nothing for real.
 */
export function createOtpDelivery(config: DeliveryConfig): OtpDelivery {
	let transport: Transporter | undefined;
	const doFetch = config.fetch ?? fetch;

	async function real(message: OutgoingMessage): Promise<string | null> {
		if (message.channel === 'email') {
			if (!config.smtpUrl) return 'no SMTP_URL configured';
			transport ??= nodemailer.createTransport(config.smtpUrl);
			await transport.sendMail({ from: config.smtpFrom, to: message.to, subject: message.subject, text: message.text });
			return null;
		}
		if (!config.smsWebhookUrl) return 'no SMS_WEBHOOK_URL configured';
		const res = await doFetch(config.smsWebhookUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ to: message.to, text: message.text, sessionId: message.sessionId }),
			signal: AbortSignal.timeout(10_000),
			redirect: 'error'
		});
		await res.body?.cancel();
		return res.ok ? null : `SMS gateway answered ${res.status}`;
	}

	return {
		async send(message, options = {}) {
			const sandbox = message.env === 'test';
			if (sandbox) {
				await config.uow.repos.sandboxMessages.insert({ id: newId('msg'), sessionId: message.sessionId, accountId: message.accountId, env: message.env, channel: message.channel, to: message.to, subject: message.subject ?? null, body: message.text, createdAt: config.now() });
			}
			// A sandbox passcode goes to the sandbox outbox only, never to a real mailbox or phone: a
			// test key (or the public demo) must not be a way to send mail to any address typed.
			if (sandbox) return { delivered: true, sandbox };
			if (options.sandboxOnly) return { delivered: false, sandbox, error: 'testMode is on, and live sessions have no sandbox outbox' };
			let error: string | null;
			try {
				error = await real(message);
			} catch (err) {
				error = (err as Error).message;
				logger.warn({ err, channel: message.channel, sessionId: message.sessionId }, 'passcode delivery failed');
			}
			return error ? { delivered: false, sandbox, error } : { delivered: true, sandbox };
		}
	};
}
