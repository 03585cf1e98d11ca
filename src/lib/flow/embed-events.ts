import type { EmbedEvent } from '#lib/domain/page/page.schema.ts';

/**
 * What the embedding page learns: ids and statuses, never personal data. `code` names why a
 * `veriflow:error` happened (an error code such as `client_secret_expired`).
 */
export interface EmbedMessage {
	type: EmbedEvent;
	sessionId: string | null;
	status: string | null;
	nodeType?: string;
	code?: string;
	/** On `veriflow:resize`: the page's content height in CSS pixels, for an iframe that fits it. */
	height?: number;
	/** On `veriflow:complete`: the session's verdict, as the report has it (a hint for the UI). */
	isVerified?: boolean;
}

interface Target {
	postMessage(message: unknown, targetOrigin: string): void;
}

/**
 * Posts an event to the parent frame, addressed to each allowed origin: the browser delivers it
 * only if the parent really is that origin, so no other page can read it. Top-level pages post
 * nothing. Returns how many origins it was addressed to.
 */
export function postEmbedEvent(self: { parent: Target | null } & object, origins: readonly string[], message: EmbedMessage): number {
	const parent = self.parent;
	if (!parent || parent === (self as unknown)) return 0;
	const clean: EmbedMessage = { type: message.type, sessionId: message.sessionId, status: message.status };
	if (message.nodeType) clean.nodeType = message.nodeType;
	if (message.code) clean.code = message.code;
	if (typeof message.height === 'number' && Number.isFinite(message.height)) clean.height = Math.round(message.height);
	if (message.type === 'veriflow:complete' && typeof message.isVerified === 'boolean') clean.isVerified = message.isVerified;
	let sent = 0;
	for (const origin of new Set(origins)) {
		if (!/^https?:\/\/[^/\s]+$/.test(origin)) continue;
		try {
			parent.postMessage(clean, origin);
			sent++;
		} catch {
			// An origin the browser cannot parse: skip it, the others still count.
		}
	}
	return sent;
}
