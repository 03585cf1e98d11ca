import { describe, expect, it } from 'vitest';
import type { FlowNode } from './flow.schema.ts';
import { firstScreens, flowProgress } from './flow-progress.ts';

const flow: FlowNode[] = [
	{ id: 'start', type: 'start', outcome: 'perm' },
	{ id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'chat', permissionsDenied: 'end' } },
	{ id: 'chat', type: 'conversation', prompt: 'Ready?', outcomes: [{ id: 'yes', condition: 'ready', targetNodeId: 'check' }, { id: 'no', condition: 'not ready', targetNodeId: 'end' }] },
	{ id: 'check', type: 'data_validation', validation: { field: 'ready', action: 'exists' }, outcomes: [{ id: 'ok', condition: 'x', targetNodeId: 'email' }] },
	{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'face', canceled: 'help' } },
	{ id: 'help', type: 'conversation', prompt: 'Why?', outcomes: [{ id: 'o', condition: 'any', targetNodeId: 'end' }] },
	{ id: 'face', type: 'face_scan', mode: 'capture', outcomes: { passed: 'end', notPassed: 'face', cancelled: 'end', error: 'end' } },
	{ id: 'end', type: 'end' }
];

describe('flowProgress', () => {
	it('counts the visible steps of the main path, skipping start, data checks and end', () => {
		expect(flowProgress(flow, 'perm')).toEqual({ current: 1, total: 4 });
		expect(flowProgress(flow, 'email')).toEqual({ current: 3, total: 4 });
		expect(flowProgress(flow, 'face')).toEqual({ current: 4, total: 4 });
	});

	it('says nothing off the main path, at the end, or for a one-step flow', () => {
		expect(flowProgress(flow, 'help')).toBeNull();
		expect(flowProgress(flow, 'end')).toBeNull();
		expect(flowProgress(flow, null)).toBeNull();
		const oneStep: FlowNode[] = [{ id: 'start', type: 'start', outcome: 'email' }, ...flow.filter((n) => n.id === 'email' || n.id === 'end')];
		expect(flowProgress(oneStep, 'email')).toBeNull();
	});

	it('stops at a loop instead of walking it for ever', () => {
		const loop: FlowNode[] = [
			{ id: 'start', type: 'start', outcome: 'a' },
			{ id: 'a', type: 'enter_email', outcomes: { emailEntered: 'b', canceled: 'end' } },
			{ id: 'b', type: 'permissions', outcomes: { permissionsGranted: 'a', permissionsDenied: 'end' } },
			{ id: 'end', type: 'end' }
		];
		expect(flowProgress(loop, 'b')).toEqual({ current: 2, total: 2 });
	});
});

describe('firstScreens', () => {
	it('names the first visible step of the main path, from START or from the current node, and the next after a permissions node', () => {
		expect(firstScreens(flow)).toEqual(['permissions', 'conversation']);
		expect(firstScreens(flow, 'chat')).toEqual(['conversation']);
		// The data check is invisible: after it, the e-mail.
		expect(firstScreens(flow, 'check')).toEqual(['enter_email']);
		expect(firstScreens(flow, 'face')).toEqual(['face_scan']);
		expect(firstScreens(flow, 'gone')).toEqual([]);
		expect(firstScreens([])).toEqual([]);
	});
});
