import type { PermissionResult } from './permission-result.ts';
import { storage, TAB_PREFIX as PREFIX } from './tab-storage.ts';

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
