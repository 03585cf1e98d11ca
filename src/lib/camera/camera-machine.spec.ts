import { describe, expect, it } from 'vitest';
import { cameraTransition, classifyCameraError, constraintsFor, initialCamera, type CameraEvent, type CameraState } from './camera-machine.ts';

function run(events: CameraEvent[], state: CameraState = initialCamera()) {
	const effects: (string | null)[] = [];
	for (const e of events) {
		const next = cameraTransition(state, e);
		state = next.state;
		effects.push(next.effect);
	}
	return { state, effects };
}

describe('camera state machine', () => {
	it('starts on the front camera at 720p and goes live', () => {
		const { state, effects } = run([{ type: 'start' }, { type: 'started', deviceId: 'cam-1' }]);
		expect(state).toMatchObject({ status: 'live', deviceId: 'cam-1', facing: 'user' });
		expect(effects).toEqual(['acquire', null]);
		expect(constraintsFor(initialCamera()).video).toMatchObject({ facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 720 } });
	});

	it('steps the resolution down when the camera cannot do it, then gives up as no camera', () => {
		let { state } = run([{ type: 'start' }, { type: 'failed', problem: 'overconstrained' }]);
		expect(state).toMatchObject({ status: 'starting', resolution: 1 });
		expect(constraintsFor(state).video).toMatchObject({ width: { ideal: 640 } });
		({ state } = run([{ type: 'failed', problem: 'overconstrained' }], state));
		expect(constraintsFor(state).video).not.toHaveProperty('width');
		({ state } = run([{ type: 'failed', problem: 'overconstrained' }], state));
		expect(state).toMatchObject({ status: 'problem', problem: 'noCamera' });
	});

	it('names the problem: denied, no camera, busy', () => {
		expect(run([{ type: 'start' }, { type: 'failed', problem: classifyCameraError({ name: 'NotAllowedError' }) as 'denied' }]).state).toMatchObject({ status: 'problem', problem: 'denied' });
		expect(classifyCameraError({ name: 'NotFoundError' })).toBe('noCamera');
		expect(classifyCameraError({ name: 'NotReadableError' })).toBe('busy');
		expect(classifyCameraError({ name: 'OverconstrainedError' })).toBe('overconstrained');
		expect(classifyCameraError(new Error('?'))).toBe('error');
	});

	it('is lost when the track ends mid-node, and starts again on retry', () => {
		const { state, effects } = run([{ type: 'start' }, { type: 'started', deviceId: 'a' }, { type: 'trackEnded' }]);
		expect(state.status).toBe('lost');
		expect(effects.at(-1)).toBe('release');
		expect(run([{ type: 'start' }], state)).toMatchObject({ state: { status: 'starting', deviceId: 'a' }, effects: ['acquire'] });
	});

	it('releases every track when the tab is hidden and takes the camera again when visible', () => {
		const { state, effects } = run([{ type: 'start' }, { type: 'started', deviceId: 'a' }, { type: 'hidden' }, { type: 'visible' }, { type: 'started', deviceId: 'a' }]);
		expect(effects).toEqual(['acquire', null, 'release', 'acquire', null]);
		expect(state.status).toBe('live');
	});

	it('switches devices, and a stream that arrives after stop is given back', () => {
		const switched = run([{ type: 'start' }, { type: 'started', deviceId: 'a' }, { type: 'switch', deviceId: 'b' }]);
		expect(switched.state).toMatchObject({ status: 'starting', deviceId: 'b' });
		expect(constraintsFor(switched.state).video).toMatchObject({ deviceId: { exact: 'b' } });
		const late = run([{ type: 'start' }, { type: 'stop' }, { type: 'started', deviceId: 'a' }]);
		expect(late.state.status).toBe('stopped');
		expect(late.effects).toEqual(['acquire', 'release', 'release']);
	});

	it('ignores events that make no sense in a state', () => {
		expect(run([{ type: 'trackEnded' }, { type: 'visible' }, { type: 'switch', deviceId: 'x' }]).state.status).toBe('idle');
	});
});
