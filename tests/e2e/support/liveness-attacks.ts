// The liveness attack suite of issue #12: a genuine simulated subject and five presentation attacks on
// a `liveness_detection` node, each one session, each reduced to the server's verdict. The e2e test
// runs one of each; scripts/eval/liveness-attacks.ts runs N of each and reports APCER and BPCER.
//
// Sessions are sandbox sessions whose node asks to be judged as a live one: camera signals decide
// (`testMode.injection: 'enforce'`), and so do the light challenge (`testMode.lightChallenge`) and the
// turn's continuity (`testMode.continuousTurn`), as in a live session. The challenge is pinned to
// turnLeft so the genuine subject knows which way to turn; the attacks that see the challenge (the
// ones posting frames) read it from the node state like the page does.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { asJson, readPosted } from './evidence-body.ts';
import { baseUrl, createSession, getSession } from './journey.ts';
import { faceFlow, QUICK, runSceneSession, type FaceRun } from './face-journey.ts';
import { FACE_CROPS } from './face-clips.ts';
import { HEADS, renderTurn } from './turning-face.ts';
import { encodeJpeg, noise, turnFrames, type Raw, type TestFrame } from '../../helpers/face-frames.ts';

export const ATTACKS = ['photoAndMirror', 'print', 'replay', 'injection', 'relay'] as const;
export type Attack = (typeof ATTACKS)[number];

/** What the server decided for one presentation (a session), genuine or attack. */
export interface Presentation {
	kind: 'genuine' | Attack;
	sessionId: string;
	/** The liveness node's outcome. */
	outcome: string;
	/** The attack was accepted (an attack) / the subject was accepted (genuine). */
	accepted: boolean;
	reason?: string;
	signals: string[];
	/** Whether the server found the challenge met (null: not judged). */
	challengePassed: boolean | null;
	/** Why the challenge failed (e.g. notContinuous: the turn was not one continuous motion). */
	challengeReason?: string;
	/** The largest movement the server measured (degrees of yaw towards the asked side; a blink's lowest open share). */
	challengePeak?: number;
	/** The passive model's median score over the try's frames. */
	passive?: number;
	/** The light challenge's measured response (RMS log-chromaticity) and correlation. */
	lightResponse?: number;
	lightScore?: number;
	/** The node report's details, whole (the eval's --dump writes them). */
	details?: unknown;
	/** The turn's continuity as the server measured it (reason, ramp frames, largest gap and step). */
	continuity?: Record<string, unknown>;
	/** The light challenge's verdict (null: none issued) and why it failed (missing, mismatch, lagging, noResponse…). */
	lightPassed: boolean | null;
	lightReason?: string;
	/** Frames the scene camera drew lit by the page's screen colour (browser presentations). */
	litFrames?: number;
	/** Tries the node took (its report's previous tries and the last). */
	tries?: number;
	ms: number;
}

const SUBJECT = 'faces/barack_obama_1.jpg';
const CHALLENGE = 'turnLeft' as const;

export interface SuiteOptions {
	/** Retries the node allows (spec default 3; the e2e test uses 1 to stay fast). */
	maxRetries?: number;
}

/** How the genuine subject's device and the person behave (the eval's starved-device runs). */
export interface SubjectOptions extends SuiteOptions {
	/** The light relayed this late (the relay attack). */
	lightLagMs?: number;
	/** Chromium's CPU slowed this many times (DevTools protocol), as a slow phone. */
	cpuThrottle?: number;
	/** The person waits this long after the page asks before turning (a slow reactor). */
	reactionMs?: number;
	/** The fixture portrait the subject is made of (one with a head in turning-face.ts HEADS); Obama's by default. */
	subject?: string;
	/** The screen's light on the face, relative to the suite's usual (scene-camera.ts SubjectScene lightGain). */
	lightGain?: number;
}

/** The flow every presentation runs: permissions → liveness_detection, judged as in a live session. */
export function livenessFlow(options: SuiteOptions = {}) {
	return faceFlow([
		{
			id: 'live',
			type: 'liveness_detection',
			...QUICK,
			...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
			testMode: { challenge: CHALLENGE, injection: 'enforce', lightChallenge: 'enforce', continuousTurn: 'enforce' }
		}
	]);
}

function presentation(kind: Presentation['kind'], run: Pick<FaceRun, 'sessionId' | 'reports'>, started: number, litFrames?: number): Presentation {
	const report = run.reports.live;
	const outcome = report?.outcome ?? 'none';
	return {
		kind,
		sessionId: run.sessionId,
		outcome,
		accepted: outcome === 'livenessDetected',
		...(report?.details?.reason ? { reason: report.details.reason } : {}),
		signals: report?.details?.injection?.signals ?? [],
		challengePassed: report?.details?.challenge?.passed ?? null,
		...(report?.details?.challenge?.reason ? { challengeReason: report.details.challenge.reason } : {}),
		...(typeof report?.details?.challenge?.peak === 'number' ? { challengePeak: report.details.challenge.peak } : {}),
		...(typeof report?.details?.liveness?.median === 'number' ? { passive: report.details.liveness.median } : {}),
		...(report?.details?.challenge?.continuity ? { continuity: report.details.challenge.continuity } : {}),
		lightPassed: report?.details?.lightChallenge?.passed ?? null,
		...(report?.details?.lightChallenge?.reason ? { lightReason: report.details.lightChallenge.reason } : {}),
		...(litFrames !== undefined ? { litFrames } : {}),
		...(report ? { tries: (report.details?.previousTries?.length ?? 0) + 1 } : {}),
		...(report?.details ? { details: report.details } : {}),
		...(typeof report?.details?.lightChallenge?.response === 'number' ? { lightResponse: report.details.lightChallenge.response, lightScore: report.details.lightChallenge.score } : {}),
		ms: Date.now() - started
	};
}

/** Answers the page's challenge as a cooperative user: turns left once the page asks, back when it is met. */
async function turnWhenAsked(page: Page, camera: { turn(deg: number, ms?: number): Promise<void> }, reactionMs = 0): Promise<void> {
	const asked = page.locator('[data-testid="face-node"][data-phase="challenge"]');
	const end = page.locator('[data-screen="end"]');
	// Every try asks again: turn each time the page asks, until the flow ends.
	for (;;) {
		await asked.or(end).first().waitFor({ timeout: 150_000 });
		if (await end.isVisible()) return;
		if (reactionMs > 0) await page.waitForTimeout(reactionMs);
		await camera.turn(30, 1500);
		await asked.waitFor({ state: 'detached', timeout: 60_000 }).catch(() => undefined);
		await camera.turn(0, 800);
	}
}

/**
 * The genuine subject (turning-face.ts) through the page; `lightLagMs` relays it (the relay attack).
 * The evidence bodies the page posted are kept (the replay attack posts them again).
 */
export async function subjectSession(browser: Browser, options: SubjectOptions = {}): Promise<{ presentation: Presentation; bodies: any[] }> {
	const started = Date.now();
	// As JSON with base64 images: the replay posts them as a script would, without the page.
	const posted: Promise<any>[] = [];
	let lit = 0;
	const run = await runSceneSession(
		browser,
		{ subject: { subject: options.subject ?? SUBJECT, lightLagMs: options.lightLagMs ?? 0, fill: true, lightGain: options.lightGain ?? 1 } },
		{ flow: livenessFlow(options) },
		async (page, camera) => {
			// Through a route, not the 'request' event: Chromium hands the event no body for a
			// multipart upload of this size, an intercepted request carries all of it.
			await page.route('**/api/client/nodes/live/evidence', async (route) => {
				const r = route.request();
				if (r.method() === 'POST') posted.push(r.headerValue('content-type').then(async (type) => asJson(await readPosted(r.postDataBuffer() ?? Buffer.alloc(0), type ?? ''))));
				await route.continue();
			});
			if (options.cpuThrottle && options.cpuThrottle > 1) await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: options.cpuThrottle });
			await turnWhenAsked(page, camera, options.reactionMs);
			lit = await camera.litFrames().catch(() => lit);
		},
		{ timeoutMs: 180_000 }
	);
	const bodies = await Promise.all(posted);
	return { presentation: presentation(options.lightLagMs ? 'relay' : 'genuine', run, started, lit), bodies };
}

/**
 * (b) A printed photo held to the camera, whatever the page asks: the subject's own picture that
 * never turns, drifting in the hand, with sensor noise and lit by the screen as paper is (so no camera
 * signal gives it away: a print looping by whole pixels, as the older scene camera drew it, is caught
 * as loopedFrames, which flatters the defence).
 */
export async function printSession(browser: Browser, options: SuiteOptions = {}): Promise<Presentation> {
	const started = Date.now();
	const run = await runSceneSession(browser, { print: { subject: SUBJECT } }, { flow: livenessFlow(options) }, async () => undefined, { timeoutMs: 240_000 });
	return presentation('print', run, started);
}

/** A session driven without the page, as a tampered browser or a script would drive it. */
interface Client {
	sessionId: string;
	token: string;
	state: any;
}

async function clientCall(token: string | null, method: string, route: string, body?: unknown): Promise<any> {
	const res = await fetch(`${baseUrl()}/api/client${route}`, {
		method,
		headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
	const json = await res.json();
	expect(res.status, JSON.stringify(json).slice(0, 300)).toBe(200);
	return json;
}

/** Opens a new session with its client secret and grants the camera, as the page does. */
async function openAsClient(options: SuiteOptions): Promise<Client> {
	const created = await createSession({ flow: livenessFlow(options) });
	const opened = await clientCall(null, 'POST', '/open', { clientSecret: created.secret, languages: ['en'] });
	const token = opened.pageToken as string;
	const granted = await clientCall(token, 'POST', '/nodes/perm', { step: opened.state.session.step, requestId: rid(), action: 'granted', payload: { camera: true, consent: { biometric: true, enrolment: false } } });
	expect(granted.state.node).toMatchObject({ id: 'live', type: 'liveness_detection' });
	return { sessionId: created.id, token, state: granted.state };
}

const rid = () => `atk_${crypto.randomUUID().replace(/-/g, '')}`;

/**
 * Posts frames for every try the node gives (`framesFor` sees the node's current state: its challenge
 * and whatever else the server sent the page), then reads the verdict.
 */
async function postTries(kind: Attack, options: SuiteOptions, framesFor: (state: any, attempt: number) => Promise<{ frames: TestFrame[]; claim?: Record<string, unknown>; lightStartedAt?: number }>): Promise<Presentation> {
	const started = Date.now();
	const client = await openAsClient(options);
	let state = client.state;
	for (let attempt = 0; attempt < 12 && state.node?.id === 'live' && !state.finished; attempt++) {
		// Another page fetch, as the page refreshes: the node's props are what an attacker gets to see.
		state = (await clientCall(client.token, 'GET', '/state')).state ?? state;
		const { frames, claim, lightStartedAt } = await framesFor(state, attempt);
		const answer = await clientCall(client.token, 'POST', '/nodes/live/evidence', {
			step: state.session.step,
			requestId: rid(),
			frames: frames.map((f, i) => ({ ...f, kind: i === 0 ? 'best' : 'passive' })),
			claim: claim ?? {},
			...(lightStartedAt !== undefined ? { lightStartedAt } : {})
		});
		state = answer.state;
	}
	const session = await getSession(client.sessionId);
	const reports = Object.fromEntries((session.report?.nodeReports ?? []).map((r: any) => [r.nodeId, r]));
	return presentation(kind, { sessionId: client.sessionId, reports }, started);
}

/** A browser's believable claim: an ordinary webcam, nothing frozen, the challenge met. */
const claimed = (challenge: string) => ({ outcome: 'livenessDetected', liveness: 0.98, challenge: { type: challenge, passed: true }, camera: { label: 'Integrated Webcam (0c45:6a05)', width: 640, height: 480 } });

/** (a) A photo and its mirror image posted as frames, in the order the challenge asks (issue #12). */
export function photoAndMirrorSession(options: SuiteOptions = {}): Promise<Presentation> {
	return postTries('photoAndMirror', options, async (state) => {
		const challenge = state.node?.props?.challenge === 'turnRight' ? 'turnRight' : 'turnLeft';
		return { frames: await turnFrames(challenge), claim: claimed(challenge) };
	});
}

/** (c) The frames a genuine session posted, posted again into a new session (its own step and request id). */
export function replaySession(bodies: readonly any[], options: SuiteOptions = {}): Promise<Presentation> {
	if (!bodies.length) throw new Error('replay needs the evidence of a genuine session');
	return postTries('replay', options, async (_state, attempt) => {
		const body = bodies[Math.min(attempt, bodies.length - 1)];
		// All of it, the light's start included: the frames then answer the wrong colours, not none.
		return { frames: body.frames.map((f: any) => ({ image: f.image, t: f.t })), claim: body.claim, ...(typeof body.lightStartedAt === 'number' ? { lightStartedAt: body.lightStartedAt } : {}) };
	});
}

let subjectRaw: Promise<{ data: Uint8ClampedArray; width: number; height: number }> | null = null;

/**
 * (d) Frames rendered without a camera and uploaded straight to the evidence endpoint: the genuine
 * subject's turn (the same cylinder the scene camera draws), with noise and a webcam's frame timing,
 * in the direction the node state asks. It does not render any light the server asked for.
 */
export function injectionSession(options: SuiteOptions = {}): Promise<Presentation> {
	subjectRaw ??= sharp(readFileSync(path.resolve(import.meta.dirname, '../../fixtures', SUBJECT)))
		.ensureAlpha()
		.raw()
		.toBuffer({ resolveWithObject: true })
		.then(({ data, info }) => ({ data: new Uint8ClampedArray(data), width: info.width, height: info.height }));
	return postTries('injection', options, async (state, attempt) => {
		const challenge = state.node?.props?.challenge ?? 'turnLeft';
		const sign = challenge === 'turnRight' ? -1 : 1;
		const src = await subjectRaw!;
		const head = HEADS[path.basename(SUBJECT)];
		const crop = FACE_CROPS[path.basename(SUBJECT)]!;
		// Held still, then a smooth turn of 30° (cylinder angle), frames 100–140 ms apart.
		const angles = challenge === 'blink' ? [0, 0, 0, 0, 0, 0, 0, 0] : [0, 0, 0, 2, 8, 16, 24, 29, 30];
		const frames: TestFrame[] = [];
		let t = 400;
		for (const [i, a] of angles.entries()) {
			const turned = renderTurn(src, head, sign * a);
			const rgb = await sharp(Buffer.from(turned.data.buffer, turned.data.byteOffset, turned.data.byteLength), { raw: { width: turned.width, height: turned.height, channels: 4 } })
				.extract({ left: crop.x, top: crop.y, width: crop.width, height: crop.height })
				.removeAlpha()
				.raw()
				.toBuffer({ resolveWithObject: true });
			const raw: Raw = { data: new Uint8Array(rgb.data), width: rgb.info.width, height: rgb.info.height };
			frames.push({ image: Buffer.from(await encodeJpeg(noise(raw, 1 + i + 97 * attempt, 4), 88)).toString('base64'), t });
			t += 100 + ((i * 37) % 41);
		}
		return { frames, claim: claimed(challenge) };
	});
}
