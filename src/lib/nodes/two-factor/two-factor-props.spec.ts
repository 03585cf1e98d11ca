import { describe, expect, it } from 'vitest';
import { clock, digitsOf, twoFactorProps } from './two-factor-props.ts';

describe('two-factor props', () => {
	it('reads the server view with safe defaults', () => {
		expect(twoFactorProps({ otpLength: 6, channels: ['email', 'fax'], channel: 'email', destination: 'a•••@example.com', expiresAt: 10, resendAvailableAt: 5, attemptsLeft: 2, sendsLeft: 4, testMode: false })).toEqual({
			showUI: true,
			otpLength: 6,
			channels: ['email'],
			channel: 'email',
			destination: 'a•••@example.com',
			expiresAt: 10,
			resendAvailableAt: 5,
			attemptsLeft: 2,
			sendsLeft: 4,
			testMode: false
		});
		expect(twoFactorProps({ otpLength: 12, showUI: false })).toMatchObject({ otpLength: 8, showUI: false, channel: null, expiresAt: null });
	});

	it('formats countdowns and cleans codes', () => {
		expect([clock(0), clock(999), clock(61_000), clock(300_000)]).toEqual(['0:00', '0:01', '1:01', '5:00']);
		expect(digitsOf('123 456', 6)).toBe('123456');
		expect(digitsOf('12-34-56-78', 6)).toBe('123456');
	});
});
