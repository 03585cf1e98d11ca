/** Small valid flows for tests. */
export const SIMPLE_FLOW = [
	{ id: 'start', type: 'start', outcome: 'email' },
	{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'end', canceled: 'end' } },
	{ id: 'end', type: 'end' }
];

export const createBody = (overrides: Record<string, unknown> = {}) => ({ clientReferenceId: 'user-1', flow: SIMPLE_FLOW, ...overrides });
