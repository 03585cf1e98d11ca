// The passcode node types' contract (two_factor, two_factor_email, two_factor_sms): settings with
// defaults, outcomes, and what the page receives. The page never sees the code or the full address.
import { z } from 'zod';
import type { NodeOf } from '../flow/flow.schema.ts';
import { FIXED_OUTCOME_KEYS, TWO_FACTOR_CHANNELS, type TwoFactorType } from '../flow/node-types.ts';
import { OTP_DEFAULTS } from './two-factor-defaults.ts';

export const TWO_FACTOR_OUTCOMES = FIXED_OUTCOME_KEYS.two_factor;

/** A passcode node's settings with the defaults applied (the flow keeps what was sent). */
export const twoFactorSettingsOf = (node: NodeOf<TwoFactorType>) => ({
	otpLength: node.otpLength ?? OTP_DEFAULTS.otpLength,
	expirySeconds: node.expirySeconds ?? OTP_DEFAULTS.expirySeconds,
	maxAttempts: node.maxAttempts ?? OTP_DEFAULTS.maxAttempts,
	resendAfterSeconds: node.resendAfterSeconds ?? OTP_DEFAULTS.resendAfterSeconds,
	showUI: node.showUI ?? true,
	testMode: node.testMode?.enabled === true
});
export type TwoFactorSettings = ReturnType<typeof twoFactorSettingsOf>;

const channel = z.enum(TWO_FACTOR_CHANNELS);

/** What the page receives for a passcode node. */
export const twoFactorViewPropsSchema = z.object({
	showUI: z.boolean(),
	otpLength: z.int(),
	/** Channels with a destination the user may pick from. */
	channels: z.array(channel),
	/** The channel and masked destination of the code last sent (null before the first). */
	channel: channel.nullable(),
	destination: z.string().nullable(),
	expiresAt: z.number().nullable(),
	resendAvailableAt: z.number().nullable(),
	attemptsLeft: z.int().min(0),
	sendsLeft: z.int().min(0),
	testMode: z.boolean()
});
export type TwoFactorViewProps = z.infer<typeof twoFactorViewPropsSchema>;
