import type { Notice } from './page-runner.svelte.ts';
import type { Translate } from './translator.svelte.ts';

export interface NoticeText {
	text: string;
	/** `info` reports something that worked (a code was sent); `error` asks the user to act. */
	tone: 'info' | 'error';
}

const num = (notice: Notice, key: string, fallback: number) => {
	const value = Number(notice.params?.[key]);
	return Number.isFinite(value) ? value : fallback;
};

/**
 * The sentence for a server notice (`{code, params}` from a node result), or null for notices the
 * avatar already voices (a conversation's "say that again").
 */
export function noticeText(t: Translate, notice: Notice | null | undefined): NoticeText | null {
	if (!notice) return null;
	switch (notice.code) {
		case 'conversation.repeat':
		case 'conversation.answered':
			return null;
		case 'conversation.empty':
			return { text: t('conversation:empty'), tone: 'error' };
		case 'email.invalid':
			return { text: t('email:invalid'), tone: 'error' };
		case 'otp.wrong':
			return { text: t('otp:wrongCode', { count: num(notice, 'attemptsLeft', 0) }), tone: 'error' };
		case 'otp.expired':
			return { text: t('otp:expired'), tone: 'error' };
		case 'otp.format':
			return { text: t('otp:format', { count: num(notice, 'length', 6) }), tone: 'error' };
		case 'otp.notSent':
			return { text: t('otp:notSent'), tone: 'error' };
		case 'otp.sent':
			return { text: t('otp:resent'), tone: 'info' };
		case 'otp.resendWait':
			return { text: t('otp:resendIn', { count: num(notice, 'seconds', 1) }), tone: 'error' };
		case 'otp.tooManySends':
			return { text: t('otp:tooManySends'), tone: 'error' };
		default:
			return { text: t('errors:generic'), tone: 'error' };
	}
}
