import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DialogPort } from '../runner/runner-deps.ts';
import { createDialogEngine } from './create-dialog-engine.ts';
import type { DialogState, JudgeInput } from './dialog.types.ts';
import { EmbeddedDialogEngine } from './embedded-dialog.engine.ts';
import { LlmDialogEngine, type DialogLogger } from './llm-dialog.engine.ts';

type Handler = (body: Record<string, unknown>, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
let requests: { path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[];

function reply(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function completion(content: string | null) {
	return { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] };
}

beforeAll(async () => {
	server = createServer((req, res) => {
		let raw = '';
		req.on('data', (chunk) => (raw += chunk));
		req.on('end', () => {
			const body = JSON.parse(raw) as Record<string, unknown>;
			requests.push({ path: req.url ?? '', headers: req.headers, body });
			handler(body, res);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

let warnings: Record<string, unknown>[];
const logger: DialogLogger = { warn: (details) => warnings.push(details) };

beforeEach(() => {
	requests = [];
	warnings = [];
	handler = (_body, res) => reply(res, 500, { error: 'no handler' });
});

function engine(timeoutMs = 2000) {
	return new LlmDialogEngine({ baseUrl, apiKey: 'sk-test', model: 'test-model', fetch: globalThis.fetch, timeoutMs, logger });
}

const state: DialogState = {
	transcript: [{ id: 'p1', createdAt: 1, text: 'Hello! Are you ready to begin?', isAvatar: true }],
	data: { providedData: { name: 'Ada' }, extractedData: { documentNumber: 'X123' } }
};
const judgeInput: JudgeInput = {
	outcomes: [
		{ id: 'ready', condition: 'The user is ready' },
		{ id: 'declined', condition: 'The user declines' }
	],
	lang: 'de',
	state,
	reply: 'Ja, ich bin bereit'
};

describe('LlmDialogEngine.judge against a chat-completions server', () => {
	it('uses a good answer and sends a well-formed request', async () => {
		handler = (_body, res) => reply(res, 200, completion(JSON.stringify({ outcomeId: 'declined', entities: { name: 'Ada', age: 34, empty: null } })));
		const result = await engine().judge(judgeInput);
		expect(result).toEqual({ outcomeId: 'declined', entities: { name: 'Ada', age: '34' } });
		expect(warnings).toEqual([]);
		const [request] = requests;
		expect(request!.path).toBe('/v1/chat/completions');
		expect(request!.headers.authorization).toBe('Bearer sk-test');
		expect(request!.body).toMatchObject({ model: 'test-model', response_format: { type: 'json_object' }, temperature: 0 });
		const user = JSON.parse((request!.body.messages as { content: string }[])[1]!.content);
		expect(user.outcomes).toEqual([
			{ id: 'ready', condition: 'The user is ready' },
			{ id: 'declined', condition: 'The user declines' }
		]);
		expect(user.reply).toBe('Ja, ich bin bereit');
		// document data extracted from a scan is never sent to the model
		expect(JSON.stringify(request!.body)).not.toContain('X123');
	});

	it('accepts null (no condition holds) as the answer', async () => {
		handler = (_body, res) => reply(res, 200, completion('{"outcomeId": null, "entities": {}}'));
		expect(await engine().judge(judgeInput)).toEqual({ outcomeId: null, entities: {} });
		expect(warnings).toEqual([]);
	});

	it('falls back to the embedded judge on malformed JSON', async () => {
		handler = (_body, res) => reply(res, 200, completion('Sure! The answer is {outcomeId: ready'));
		expect((await engine().judge(judgeInput)).outcomeId).toBe('ready');
		expect(warnings).toEqual([expect.objectContaining({ operation: 'judge', reason: 'malformed' })]);
	});

	it('falls back when the JSON has the wrong shape', async () => {
		handler = (_body, res) => reply(res, 200, completion('{"outcome": "ready"}'));
		expect((await engine().judge(judgeInput)).outcomeId).toBe('ready');
		expect(warnings[0]).toMatchObject({ reason: 'malformed' });
	});

	it('falls back when the response body is not a completion', async () => {
		handler = (_body, res) => reply(res, 200, '<html>gateway</html>');
		expect((await engine().judge(judgeInput)).outcomeId).toBe('ready');
		expect(warnings[0]).toMatchObject({ reason: 'malformed' });
	});

	it('falls back on an outcome id it was not given', async () => {
		handler = (_body, res) => reply(res, 200, completion('{"outcomeId": "end-node", "entities": {}}'));
		expect((await engine().judge(judgeInput)).outcomeId).toBe('ready');
		expect(warnings[0]).toMatchObject({ reason: 'unknownOutcome', detail: 'end-node' });
	});

	it('falls back when the answer is slower than the timeout', async () => {
		handler = (_body, res) => {
			const timer = setTimeout(() => reply(res, 200, completion('{"outcomeId": "declined", "entities": {}}')), 1500);
			res.on('close', () => clearTimeout(timer));
		};
		const started = performance.now();
		expect((await engine(200).judge(judgeInput)).outcomeId).toBe('ready');
		expect(performance.now() - started).toBeLessThan(1200);
		expect(warnings[0]).toMatchObject({ reason: 'timeout' });
	});

	it('falls back on HTTP 500', async () => {
		handler = (_body, res) => reply(res, 500, { error: { message: 'boom' } });
		expect((await engine().judge(judgeInput)).outcomeId).toBe('ready');
		expect(warnings[0]).toMatchObject({ reason: 'http', detail: '500' });
	});

	it('falls back when nothing listens', async () => {
		const dead = new LlmDialogEngine({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', fetch: globalThis.fetch, logger });
		expect((await dead.judge(judgeInput)).outcomeId).toBe('ready');
		expect(warnings[0]).toMatchObject({ reason: 'network' });
	});
});

describe('LlmDialogEngine.speak', () => {
	it('speaks the model’s paraphrase in the session language', async () => {
		handler = (_body, res) => reply(res, 200, completion('"Hallo Ada! Sind Sie bereit?"'));
		const result = await engine().speak({ prompt: 'Greet the user and ask if they are ready', lang: 'de', state });
		expect(result.text).toBe('Hallo Ada! Sind Sie bereit?');
		const system = (requests[0]!.body.messages as { content: string }[])[0]!.content;
		expect(system).toContain('German');
		expect(requests[0]!.body.response_format).toBeUndefined();
	});

	it('says Say: prompts verbatim without asking the model', async () => {
		expect((await engine().speak({ prompt: 'Say: Willkommen!', lang: 'de', state })).text).toBe('Willkommen!');
		expect(requests).toHaveLength(0);
	});

	it('falls back to the phrasebook when the model fails', async () => {
		handler = (_body, res) => reply(res, 503, 'busy');
		const result = await engine().speak({ prompt: 'Greet the user and ask whether they are ready to begin', lang: 'fr', state: { ...state, data: {} } });
		expect(result.text).toBe('Bonjour ! Pouvons-nous commencer ?');
		expect(warnings[0]).toMatchObject({ operation: 'speak', reason: 'http', detail: '503' });
	});

	it('asks the model to rephrase after a reply it did not understand', async () => {
		handler = (_body, res) => reply(res, 200, completion('Entschuldigung, noch einmal: Sind Sie bereit?'));
		await engine().speak({ prompt: 'Ask if the user is ready', lang: 'de', state: { ...state, attempt: 1 } });
		expect((requests[0]!.body.messages as { content: string }[])[0]!.content).toContain('not understood');
	});
});

describe('createDialogEngine', () => {
	it('returns what the runner expects as its dialog port', () => {
		const port: DialogPort = createDialogEngine({});
		expect(port.repeatPhrase('de')).toBe('Entschuldigung, das habe ich nicht verstanden.');
		const llm: DialogPort = createDialogEngine({ LLM_BASE_URL: baseUrl }, { fetch: globalThis.fetch, logger });
		expect(llm.repeatPhrase('ja')).toBe('すみません、聞き取れませんでした。');
	});

	it('picks the embedded engine without LLM_BASE_URL and the LLM engine with it', () => {
		expect(createDialogEngine({})).toBeInstanceOf(EmbeddedDialogEngine);
		expect(createDialogEngine({ LLM_BASE_URL: '  ' })).toBeInstanceOf(EmbeddedDialogEngine);
		expect(createDialogEngine({ LLM_BASE_URL: baseUrl, LLM_MODEL: 'x' })).toBeInstanceOf(LlmDialogEngine);
	});

	it('wires the configuration through to requests', async () => {
		handler = (_body, res) => reply(res, 200, completion('{"outcomeId": "ready", "entities": {}}'));
		const configured = createDialogEngine({ LLM_BASE_URL: baseUrl, LLM_API_KEY: 'k', LLM_MODEL: 'local-model' }, { fetch: globalThis.fetch, logger });
		expect((await configured.judge(judgeInput)).outcomeId).toBe('ready');
		expect(requests[0]!.body.model).toBe('local-model');
		expect(requests[0]!.headers.authorization).toBe('Bearer k');
	});
});
