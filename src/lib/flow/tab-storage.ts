// This tab's sessionStorage, or a map in memory where it is unavailable (storage disabled, some
// embedded contexts): then the page still works until it is reloaded. Apart from page-storage.ts
// because the open call's nonce needs it in the permissions page's first load, and the rest does not.

/** Every key the hosted page keeps starts so. */
export const TAB_PREFIX = 'veriflow:page:';
const memory = new Map<string, string>();

export function storage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
	try {
		const s = globalThis.sessionStorage;
		const probe = `${TAB_PREFIX}probe`;
		s.setItem(probe, '1');
		s.removeItem(probe);
		return s;
	} catch {
		return { getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => void memory.set(k, v), removeItem: (k) => void memory.delete(k) };
	}
}
