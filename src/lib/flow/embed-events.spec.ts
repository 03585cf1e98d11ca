import { describe, expect, it } from 'vitest';
import { postEmbedEvent } from './embed-events.ts';

function frame() {
	const sent: [unknown, string][] = [];
	const parent = { postMessage: (m: unknown, o: string) => void sent.push([m, o]) };
	return { self: { parent }, sent };
}

describe('postEmbedEvent', () => {
	it('addresses each allowed origin and nothing else', () => {
		const { self, sent } = frame();
		const n = postEmbedEvent(self, ['https://shop.example', 'https://shop.example', "'self'", '*', 'http://localhost:5173'], { type: 'veriflow:node', sessionId: 'ses_1', status: 'inProgress', nodeType: 'enter_email' });
		expect(n).toBe(2);
		expect(sent.map(([, o]) => o)).toEqual(['https://shop.example', 'http://localhost:5173']);
		expect(sent[0]![0]).toEqual({ type: 'veriflow:node', sessionId: 'ses_1', status: 'inProgress', nodeType: 'enter_email' });
	});

	it('carries only ids and statuses, even when handed more', () => {
		const { self, sent } = frame();
		postEmbedEvent(self, ['https://shop.example'], { type: 'veriflow:complete', sessionId: 'ses_1', status: 'complete', email: 'ada@example.com' } as never);
		expect(sent[0]![0]).toEqual({ type: 'veriflow:complete', sessionId: 'ses_1', status: 'complete' });
	});

	it('carries a whole, finite height on veriflow:resize and drops anything else there', () => {
		const { self, sent } = frame();
		postEmbedEvent(self, ['https://shop.example'], { type: 'veriflow:resize', sessionId: 'ses_1', status: 'inProgress', height: 812.4 });
		postEmbedEvent(self, ['https://shop.example'], { type: 'veriflow:resize', sessionId: 'ses_1', status: 'inProgress', height: Number.NaN });
		postEmbedEvent(self, ['https://shop.example'], { type: 'veriflow:resize', sessionId: 'ses_1', status: 'inProgress', height: '900' } as never);
		expect(sent.map(([m]) => (m as { height?: number }).height)).toEqual([812, undefined, undefined]);
	});

	it('carries the verdict on veriflow:complete only, and only as a boolean', () => {
		const { self, sent } = frame();
		postEmbedEvent(self, ['https://shop.example'], { type: 'veriflow:complete', sessionId: 'ses_1', status: 'complete', isVerified: false });
		postEmbedEvent(self, ['https://shop.example'], { type: 'veriflow:incomplete', sessionId: 'ses_1', status: 'incomplete', isVerified: false });
		postEmbedEvent(self, ['https://shop.example'], { type: 'veriflow:complete', sessionId: 'ses_1', status: 'complete', isVerified: 'yes' } as never);
		expect(sent.map(([m]) => m)).toEqual([
			{ type: 'veriflow:complete', sessionId: 'ses_1', status: 'complete', isVerified: false },
			{ type: 'veriflow:incomplete', sessionId: 'ses_1', status: 'incomplete' },
			{ type: 'veriflow:complete', sessionId: 'ses_1', status: 'complete' }
		]);
	});

	it('posts nothing from a top-level page', () => {
		const top: { parent: unknown } = { parent: null };
		top.parent = top;
		expect(postEmbedEvent(top as never, ['https://shop.example'], { type: 'veriflow:ready', sessionId: null, status: null })).toBe(0);
	});
});
