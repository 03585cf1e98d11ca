/** The two-factor node's public state, as the server's view gives it (validated, with defaults). */
export interface TwoFactorProps {
	showUI: boolean;
	otpLength: number;
	channels: ('email' | 'sms')[];
	channel: 'email' | 'sms' | null;
	destination: string | null;
	expiresAt: number | null;
	resendAvailableAt: number | null;
	attemptsLeft: number;
	sendsLeft: number;
	testMode: boolean;
}

const channel = (v: unknown): 'email' | 'sms' | null => (v === 'email' || v === 'sms' ? v : null);
import { OTP_DEFAULTS } from '#lib/domain/nodes/two-factor-defaults.ts';

const int = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

export function twoFactorProps(props: Record<string, unknown>): TwoFactorProps {
	const length = int(props.otpLength, OTP_DEFAULTS.otpLength);
	return {
		showUI: props.showUI !== false,
		otpLength: Math.min(8, Math.max(4, length)),
		channels: Array.isArray(props.channels) ? props.channels.map(channel).filter((c): c is 'email' | 'sms' => c !== null) : [],
		channel: channel(props.channel),
		destination: typeof props.destination === 'string' ? props.destination : null,
		expiresAt: typeof props.expiresAt === 'number' ? props.expiresAt : null,
		resendAvailableAt: typeof props.resendAvailableAt === 'number' ? props.resendAvailableAt : null,
		attemptsLeft: int(props.attemptsLeft, 0),
		sendsLeft: int(props.sendsLeft, 0),
		testMode: props.testMode === true
	};
}

/** m:ss for a countdown (no language needs more than digits and a colon here). */
export function clock(ms: number): string {
	const s = Math.max(0, Math.ceil(ms / 1000));
	return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A typed or pasted code reduced to its digits ("123 456", "123-456" → "123456"). */
export function digitsOf(input: string, max: number): string {
	return input.replace(/\D+/g, '').slice(0, max);
}
