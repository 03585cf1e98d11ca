import { describe, expect, it } from 'vitest';
import { validateFlow, summariseFlowIssues, type FlowRule } from './validate-flow.ts';
import { modulesToFlow } from './modules-to-flow.ts';
import { FIXED_OUTCOME_KEYS, NODE_TYPES } from './node-types.ts';

type Node = Record<string, unknown>;
const fixed = (type: keyof typeof FIXED_OUTCOME_KEYS, target = 'end') =>
	Object.fromEntries(FIXED_OUTCOME_KEYS[type].map((k) => [k, target]));

/** A minimal valid node of each type, pointing at `end`. */
const MINIMAL: Record<string, Node> = {
	conversation: { type: 'conversation', prompt: 'Say: Hello', outcomes: [{ id: 'a', condition: 'always', targetNodeId: 'end' }] },
	liveness_detection: { type: 'liveness_detection', outcomes: fixed('liveness_detection') },
	enter_email: { type: 'enter_email', outcomes: fixed('enter_email') },
	data_validation: {
		type: 'data_validation',
		validation: { field: 'providedData.email', action: 'isEmail' },
		outcomes: [{ id: 'ok', condition: 'The validation passed', targetNodeId: 'end' }]
	},
	document_scan: { type: 'document_scan', scanningMode: 'SINGLE_SIDE', allowedDocumentTypes: ['MRTD_TYPE_PASSPORT'], outcomes: fixed('document_scan') },
	recognition: { type: 'recognition', outcomes: fixed('recognition') },
	face_scan: { type: 'face_scan', mode: 'capture', outcomes: fixed('face_scan') },
	two_factor: { type: 'two_factor', channels: ['email'], contactSource: 'session_data', outcomes: fixed('two_factor') },
	face_compare: { type: 'face_compare', referenceImageSource: 'session', referenceImageKey: 'selfie', outcomes: fixed('face_compare') },
	two_factor_email: { type: 'two_factor_email', outcomes: fixed('two_factor_email') },
	two_factor_sms: { type: 'two_factor_sms', outcomes: fixed('two_factor_sms') },
	permissions: { type: 'permissions', outcomes: fixed('permissions') }
};

/** start → node → end */
const wrap = (node: Node): Node[] => [
	{ id: 'start', type: 'start', outcome: 'n' },
	{ id: 'n', ...node },
	{ id: 'end', type: 'end' }
];

function expectInvalid(flow: unknown, rule: FlowRule, fragment: string) {
	const result = validateFlow(flow);
	expect(result.ok).toBe(false);
	if (result.ok) return;
	const hit = result.issues.find((i) => i.rule === rule);
	expect(hit, `expected a '${rule}' issue, got ${JSON.stringify(result.issues)}`).toBeDefined();
	expect(hit!.message).toContain(fragment);
}

describe('validateFlow: valid flows', () => {
	it.each(Object.keys(MINIMAL))('accepts a minimal %s node', (type) => {
		const result = validateFlow(wrap(MINIMAL[type]));
		expect(result.ok ? [] : result.issues).toEqual([]);
	});

	it('covers every node type in the table', () => {
		expect(new Set([...Object.keys(MINIMAL), 'start', 'end'])).toEqual(new Set(NODE_TYPES));
	});

	it('accepts branching that re-joins (a DAG, not a tree)', () => {
		const flow = [
			{ id: 's', type: 'start', outcome: 'ask' },
			{
				id: 'ask',
				type: 'conversation',
				prompt: 'Ask whether the user is ready',
				outcomes: [
					{ id: 'yes', condition: 'The user is ready', targetNodeId: 'email' },
					{ id: 'no', condition: 'The user declines', targetNodeId: 'bye' }
				]
			},
			{ id: 'email', type: 'enter_email', outcomes: { emailEntered: 'bye', canceled: 'bye' } },
			{ id: 'bye', type: 'end' }
		];
		expect(validateFlow(flow)).toEqual({ ok: true, flow });
	});

	it('accepts a session compare without referenceImageKey (the spec requires only mode and outcomes)', () => {
		// The node then compares with the face saved last in the session (face-reference.ts).
		for (const node of [
			{ ...MINIMAL.face_scan, mode: 'compare', referenceImageSource: 'session' },
			{ type: 'face_compare', referenceImageSource: 'session', outcomes: fixed('face_compare') },
			{ type: 'face_compare', outcomes: fixed('face_compare') }
		]) {
			const result = validateFlow(wrap(node));
			expect(result.ok ? [] : result.issues).toEqual([]);
		}
	});

	it("checks a face node's sandbox testMode: a typo would silently test less than meant", () => {
		for (const type of ['liveness_detection', 'face_scan', 'face_compare', 'recognition']) {
			const ok = validateFlow(wrap({ ...MINIMAL[type], testMode: { challenge: 'blink', injection: 'enforce', lightChallenge: 'enforce', continuousTurn: 'enforce' } }));
			expect(ok.ok ? [] : ok.issues).toEqual([]);
			expectInvalid(wrap({ ...MINIMAL[type], testMode: { lightChallenge: 'enforced' } }), 'field', "'testMode.lightChallenge' must be one of enforce");
			expectInvalid(wrap({ ...MINIMAL[type], testMode: { challenge: 'nod' } }), 'field', "'testMode.challenge'");
		}
	});

	it('keeps unknown extra node fields as the caller sent them', () => {
		const flow = wrap({ ...MINIMAL.enter_email, position: { x: 1, y: 2 } });
		const result = validateFlow(flow);
		expect(result.ok && result.flow[1]).toMatchObject({ position: { x: 1, y: 2 } });
	});

	it('accepts every legacy module converted to a flow', () => {
		const flow = modulesToFlow([
			{ type: 'emailVerification', email: 'a@example.com', publicRecognitionEnabled: true },
			{ type: 'emailVerification' },
			{ type: 'smsVerification', phone: '+14155550123' },
			{ type: 'smsVerification' },
			{ type: 'identityVerification' },
			{ type: 'documentAuthentication' },
			{ type: 'ageEstimation', age: 18 },
			{ type: 'proofOfIntent', requestedData: [{ key: 'income', isRequired: true }, { key: 'job' }] },
			{ type: 'knowledgeVerify' }
		]);
		const result = validateFlow(flow);
		expect(result.ok ? [] : result.issues).toEqual([]);
		expect(flow[0]).toEqual({ id: 'start', type: 'start', outcome: 'permissions' });
		expect(flow.filter((n) => n.type === 'end')).toHaveLength(1);
	});
});

describe('validateFlow: graph rules', () => {
	it('rejects a non-array and an empty flow', () => {
		expectInvalid({}, 'shape', 'flow must be an array');
		expectInvalid([], 'one_start', 'start node');
	});

	it('requires exactly one start', () => {
		expectInvalid([{ id: 'e', type: 'end' }], 'one_start', 'it has none');
		expectInvalid(
			[
				{ id: 's1', type: 'start', outcome: 'e' },
				{ id: 's2', type: 'start', outcome: 'e' },
				{ id: 'e', type: 'end' }
			],
			'one_start',
			"it has 2 ('s1', 's2')"
		);
	});

	it('requires an end', () => {
		expectInvalid([{ id: 's', type: 'start', outcome: 's' }], 'has_end', 'at least one end node');
	});

	it('requires unique node ids', () => {
		const flow = [...wrap(MINIMAL.enter_email), { id: 'n', type: 'end' }];
		expectInvalid(flow, 'unique_node_id', "flow node id 'n' is used more than once");
	});

	it('requires unique outcome ids within a node', () => {
		const node = {
			type: 'conversation',
			prompt: 'Say: hi',
			outcomes: [
				{ id: 'x', condition: 'a', targetNodeId: 'end' },
				{ id: 'x', condition: 'b', targetNodeId: 'end' }
			]
		};
		expectInvalid(wrap(node), 'unique_outcome_id', "flow node 'n' (conversation): 'outcomes[1].id' repeats outcome id 'x'");
	});

	it('requires every target to exist', () => {
		expectInvalid(wrap({ ...MINIMAL.enter_email, outcomes: { emailEntered: 'end', canceled: 'nowhere' } }), 'target_exists', "'outcomes.canceled' targets 'nowhere'");
		expectInvalid([{ id: 's', type: 'start', outcome: 'ghost' }, { id: 'e', type: 'end' }], 'target_exists', "'outcome' targets 'ghost'");
	});

	it('rejects self-loops', () => {
		expectInvalid(wrap({ ...MINIMAL.permissions, outcomes: { permissionsGranted: 'end', permissionsDenied: 'n' } }), 'no_self_loop', "flow node 'n' (permissions): 'outcomes.permissionsDenied' points at its own node");
		expectInvalid(
			wrap({ type: 'conversation', prompt: 'Say: x', outcomes: [{ id: 'again', condition: 'unclear', targetNodeId: 'n' }, { id: 'ok', condition: 'else', targetNodeId: 'end' }] }),
			'no_self_loop',
			'self-loop'
		);
	});

	it('rejects cycles and names them', () => {
		const flow = [
			{ id: 's', type: 'start', outcome: 'a' },
			{ id: 'a', type: 'enter_email', outcomes: { emailEntered: 'b', canceled: 'e' } },
			{ id: 'b', type: 'permissions', outcomes: { permissionsGranted: 'e', permissionsDenied: 'a' } },
			{ id: 'e', type: 'end' }
		];
		expectInvalid(flow, 'no_cycle', "'a' → 'b' → 'a'");
	});

	it('rejects nodes unreachable from start', () => {
		const flow = [...wrap(MINIMAL.enter_email), { id: 'island', type: 'end' }];
		expectInvalid(flow, 'reachable', "flow node 'island' (end) cannot be reached from the start node");
	});
});

describe('validateFlow: fields of every node type', () => {
	const cases: [string, Node, string][] = [
		['node without type', { prompt: 'x' }, "'type' is required"],
		['unknown type', { type: 'selfie' }, "unknown node type 'selfie'"],
		['start without outcome', { type: 'start' }, "'outcome' is required"],
		['conversation without prompt', { ...MINIMAL.conversation, prompt: undefined }, "'prompt' is required"],
		['conversation with empty outcomes', { ...MINIMAL.conversation, outcomes: [] }, "'outcomes' must hold at least 1 outcome"],
		['conversation outcome without condition', { ...MINIMAL.conversation, outcomes: [{ id: 'a', targetNodeId: 'end' }] }, "'outcomes[0].condition' is required"],
		['conversation doesNotRequireReply not boolean', { ...MINIMAL.conversation, doesNotRequireReply: 'yes' }, "'doesNotRequireReply' must be of type boolean"],
		['liveness missing an outcome key', { type: 'liveness_detection', outcomes: { livenessDetected: 'end', noFace: 'end' } }, "'outcomes.deepfakeDetected' is required"],
		['liveness unknown outcome key', { type: 'liveness_detection', outcomes: { ...fixed('liveness_detection'), spoof: 'end' } }, "unknown outcome key 'spoof'"],
		['enter_email outcomes as array', { type: 'enter_email', outcomes: [] }, "'outcomes' must be of type object"],
		['data_validation without validation', { ...MINIMAL.data_validation, validation: undefined }, "'validation' is required"],
		['data_validation unknown action', { ...MINIMAL.data_validation, validation: { field: 'a', action: 'isCool' } }, "'validation.action' must be one of equals"],
		['data_validation action needing a value', { ...MINIMAL.data_validation, validation: { field: 'a', action: 'equals' } }, "'validation.value' action equals needs a value"],
		['data_validation bad regex', { ...MINIMAL.data_validation, validation: { field: 'a', action: 'matches', value: '(' } }, "'validation.value'"],
		['data_validation minLength not integer', { ...MINIMAL.data_validation, validation: { field: 'a', action: 'minLength', value: 'x' } }, 'needs a whole number'],
		['document_scan bad scanningMode', { ...MINIMAL.document_scan, scanningMode: 'BOTH' }, "'scanningMode' must be one of SINGLE_SIDE, MULTI_SIDE, BARCODE"],
		['document_scan without allowedDocumentTypes', { ...MINIMAL.document_scan, allowedDocumentTypes: undefined }, "'allowedDocumentTypes' is required"],
		['document_scan empty allowedDocumentTypes', { ...MINIMAL.document_scan, allowedDocumentTypes: [] }, 'at least 1 document type'],
		['document_scan unknown document type', { ...MINIMAL.document_scan, allowedDocumentTypes: ['MRTD_TYPE_LIBRARY_CARD'] }, "'allowedDocumentTypes[0]' must be one of"],
		['document_scan showTorchButton not boolean', { ...MINIMAL.document_scan, showTorchButton: 1 }, "'showTorchButton' must be of type boolean"],
		['recognition without outcomes', { type: 'recognition' }, "'outcomes' is required"],
		['face_scan without mode', { ...MINIMAL.face_scan, mode: undefined }, "'mode' is required"],
		['face_scan bad mode', { ...MINIMAL.face_scan, mode: 'selfie' }, "'mode' must be one of capture, compare"],
		['face_scan compare without source', { ...MINIMAL.face_scan, mode: 'compare' }, "'referenceImageSource' is required when mode is 'compare'"],
		['face_scan bad referenceImageSource', { ...MINIMAL.face_scan, mode: 'compare', referenceImageSource: 'camera' }, "'referenceImageSource' must be one of session, providedData, url"],
		['face_scan providedData source without key', { ...MINIMAL.face_scan, mode: 'compare', referenceImageSource: 'providedData' }, "'referenceImageKey' is required when referenceImageSource is 'providedData'"],
		['face_scan url source without url', { ...MINIMAL.face_scan, mode: 'compare', referenceImageSource: 'url' }, "'referenceImageUrl' is required"],
		['face_scan http url', { ...MINIMAL.face_scan, mode: 'compare', referenceImageSource: 'url', referenceImageUrl: 'http://x.example/a.jpg' }, 'must be an https URL'],
		['face_scan similarityThreshold above 1', { ...MINIMAL.face_scan, similarityThreshold: 1.5 }, "'similarityThreshold' must be between 0 and 1"],
		['face_scan similarityThreshold below 0', { ...MINIMAL.face_scan, similarityThreshold: -0.1 }, "'similarityThreshold' must be between 0 and 1"],
		['face_scan captureDelay not integer', { ...MINIMAL.face_scan, captureDelay: 1.5 }, "'captureDelay' must be an integer"],
		['face_scan minFaceSize above maxFaceSize', { ...MINIMAL.face_scan, minFaceSize: 300, maxFaceSize: 200 }, "'minFaceSize' must not be larger than maxFaceSize"],
		['face_scan qualityThreshold above 1', { ...MINIMAL.face_scan, qualityThreshold: 2 }, "'qualityThreshold' must be at most 1"],
		['face_scan maxRetries negative', { ...MINIMAL.face_scan, maxRetries: -1 }, "'maxRetries' must be at least 0"],
		// The capture fields are read on every face node type, so every one checks them.
		['liveness captureDelay not integer', { ...MINIMAL.liveness_detection, captureDelay: 1.5 }, "'captureDelay' must be an integer"],
		['liveness captureDelay over a minute', { ...MINIMAL.liveness_detection, captureDelay: 1e9 }, "'captureDelay' must be at most 60000"],
		['liveness detectionInterval 0', { ...MINIMAL.liveness_detection, detectionInterval: 0 }, "'detectionInterval' must be at least 16"],
		['liveness maxRetries a string', { ...MINIMAL.liveness_detection, maxRetries: 'three' }, "'maxRetries' must be of type number"],
		['recognition similarityThreshold above 1', { ...MINIMAL.recognition, similarityThreshold: 2 }, "'similarityThreshold' must be between 0 and 1"],
		['recognition minFaceSize above maxFaceSize', { ...MINIMAL.recognition, minFaceSize: 300, maxFaceSize: 200 }, "'minFaceSize' must not be larger than maxFaceSize"],
		['face_compare maxRetries negative', { ...MINIMAL.face_compare, maxRetries: -1 }, "'maxRetries' must be at least 0"],
		['face_compare enableSound not boolean', { ...MINIMAL.face_compare, enableSound: 'yes' }, "'enableSound' must be of type boolean"],
		['two_factor without channels', { ...MINIMAL.two_factor, channels: undefined }, "'channels' is required"],
		['two_factor bad channel', { ...MINIMAL.two_factor, channels: ['fax'] }, "'channels[0]' must be one of email, sms"],
		['two_factor without contactSource', { ...MINIMAL.two_factor, contactSource: undefined }, "'contactSource' is required"],
		['two_factor bad contactSource', { ...MINIMAL.two_factor, contactSource: 'crm' }, "'contactSource' must be one of session_data, module_settings, recognition_match"],
		['two_factor otpLength 3', { ...MINIMAL.two_factor, otpLength: 3 }, "'otpLength' must be between 4 and 8"],
		['two_factor otpLength 9', { ...MINIMAL.two_factor, otpLength: 9 }, "'otpLength' must be between 4 and 8"],
		['two_factor module_settings without staticEmail', { ...MINIMAL.two_factor, contactSource: 'module_settings' }, "'staticEmail' is required"],
		['two_factor_email bad staticEmail', { ...MINIMAL.two_factor_email, staticEmail: 'nope' }, "'staticEmail' must be an e-mail address"],
		['two_factor_sms module_settings without staticPhone', { ...MINIMAL.two_factor_sms, contactSource: 'module_settings' }, "'staticPhone' is required"],
		['two_factor_sms missing outcome key', { type: 'two_factor_sms', outcomes: { verified: 'end' } }, "'outcomes.delivery_failed' is required"],
		['face_compare missing outcomes', { type: 'face_compare' }, "'outcomes' is required"],
		['permissions unknown outcome key', { type: 'permissions', outcomes: { ...fixed('permissions'), maybe: 'end' } }, "unknown outcome key 'maybe' (a permissions node has: permissionsGranted, permissionsDenied)"]
	];

	it.each(cases)('%s', (_name, node, fragment) => {
		const result = validateFlow(wrap(node));
		expect(result.ok).toBe(false);
		if (result.ok) return;
		const messages = result.issues.map((i) => i.message).join('\n');
		expect(messages).toContain(fragment);
		// Every field problem names the node it belongs to.
		const fieldIssues = result.issues.filter((i) => i.rule === 'field');
		expect(fieldIssues.length).toBeGreaterThan(0);
		for (const issue of fieldIssues) expect(issue.message).toMatch(/^flow node ('n'|#1)/);
	});

	it('summarises many issues with a count', () => {
		const result = validateFlow([{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }, { id: 'e' }, { id: 'f' }, { id: 'g' }]);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(summariseFlowIssues(result.issues)).toMatch(/; and \d+ more$/);
	});
});
