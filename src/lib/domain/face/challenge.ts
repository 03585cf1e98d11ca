// The active-liveness challenges a face node may issue. The flow (testMode.challenge), the page's
// evidence schema and the server's node handler all name them, and the domain sits below the face
// pipeline, so the list lives here; how a challenge is judged on landmarks is lib/face/challenge.ts.

export const CHALLENGES = ['turnLeft', 'turnRight', 'blink'] as const;
/** One active-liveness challenge: turn the head left or right, or blink. */
export type Challenge = (typeof CHALLENGES)[number];

/** Whether a value names a challenge. */
export const isChallenge = (v: unknown): v is Challenge => typeof v === 'string' && (CHALLENGES as readonly string[]).includes(v);
