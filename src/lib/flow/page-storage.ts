import type { PermissionResult } from './permission-result.ts';

/**
 * What this tab keeps of a hosted page, in sessionStorage keyed by the link's code: the page token
 * (so a reload in the same tab resumes, while another browser gets "already used") and the
 * permissions answer (so a reload does not ask again). sessionStorage can be unavailable (storage
 * disabled, some embedded contexts): then the page still works until it is reloaded.
 */
export interface StoredPage {
	pageToken: string;
	permission?: PermissionResult;
	/** Phrases already spoken, so a reload does not read the whole transcript again. */
	spoken?: string[];
}

const PREFIX = 'veriflow:page:';
const memory = new Map<string, string>();

function storage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
	try {
		const s = globalThis.sessionStorage;
		const probe = `${PREFIX}probe`;
		s.setItem(probe, '1');
		s.removeItem(probe);
		return s;
	} catch {
		return { getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => void memory.set(k, v), removeItem: (k) => void memory.delete(k) };
	}
}

export function loadStoredPage(code: string): StoredPage | null {
	try {
		const raw = storage().getItem(PREFIX + code);
		const parsed = raw ? (JSON.parse(raw) as StoredPage) : null;
		return parsed && typeof parsed.pageToken === 'string' && /^pt_[A-Za-z0-9]{20,64}$/.test(parsed.pageToken) ? parsed : null;
	} catch {
		return null;
	}
}

export function saveStoredPage(code: string, page: StoredPage): void {
	try {
		storage().setItem(PREFIX + code, JSON.stringify(page));
	} catch {
		// Quota or privacy mode: a reload will start over, nothing else is lost.
	}
}

/**
 * This tab's nonce for opening the link `code`, made once and kept: a retry of the open (its
 * answer lost to a dropped connection, or a reload mid-way) proves it is the same tab.
 */
export function openNonce(code: string): string {
	const key = `${PREFIX}nonce:${code}`;
	try {
		const existing = storage().getItem(key);
		if (existing && /^[A-Za-z0-9_-]{16,64}$/.test(existing)) return existing;
	} catch {
		// fall through to a fresh one
	}
	const bytes = crypto.getRandomValues(new Uint8Array(18));
	const nonce = btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
	try {
		storage().setItem(key, nonce);
	} catch {
		// see saveStoredPage
	}
	return nonce;
}
