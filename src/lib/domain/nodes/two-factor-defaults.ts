/**
 * A passcode node's settings when the flow leaves them out. Apart from the contract
 * (two-factor.contract.ts) because the page's passcode screen needs them too, and the contract's
 * zod schemas are the server's: importing them made that screen carry zod.
 */
export const OTP_DEFAULTS = { otpLength: 6, expirySeconds: 300, maxAttempts: 3, resendAfterSeconds: 30 } as const;
