import type { FlowNode } from '../flow/flow.schema.ts';
import type { SessionReport } from './session.schema.ts';
import type { SessionStatus } from './session-status.ts';
import type { SessionSettings } from './settings.schema.ts';

/*
 * A session as the server works with it. The API's view of it is `ApiSession` (session.schema.ts);
 * this one carries what the runner needs besides: the flow being walked, the position in it, what
 * nodes saved, and what the page learnt about the device.
 */

/** Where the link was opened from (offline GeoIP), as the report shows it. */
export type SessionLocation = NonNullable<SessionReport['location']>;

/** What the link was opened on (User-Agent and Client Hints), as the report shows it. */
export type SessionDevice = NonNullable<SessionReport['device']>;

/** The choices made on the permissions page; biometric nodes and enrolment rely on them. */
export interface SessionConsent {
	biometric: boolean;
	enrolment: boolean;
	at: number;
}

export interface Session {
	id: string;
	accountId: string;
	/** Sandbox (`sk_test_…`) or production (`sk_live_…`): a key sees only its own. */
	env: 'test' | 'live';
	status: SessionStatus;
	createdAt: number;
	startedAt: number | null;
	finishedAt: number | null;
	updatedAt: number;
	lastActivityAt: number | null;
	clientReferenceId: string;
	flowId: string;
	/** What the caller sent, as sent (legacy `modules` stay modules). */
	settings: SessionSettings;
	/** The flow the runner walks (converted from modules when those were sent). */
	flow: FlowNode[];
	lang: string | null;
	/** Id of the node the user is on; null before the first open and after the end. */
	currentNodeId: string | null;
	/** Increments on every move, so a replayed or out-of-turn node result can be recognised. */
	step: number;
	/** What nodes saved on the way: free-form, as the spec's session data is. */
	data: Record<string, unknown>;
	location: SessionLocation | null;
	device: SessionDevice | null;
	consent: SessionConsent | null;
	version: string;
}
