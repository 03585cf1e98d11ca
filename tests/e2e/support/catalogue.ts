import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A UI string as the page shows it, read from the locale files (so tests follow the copy). */
export function text(lang: string, key: string, vars: Record<string, string | number> = {}): string {
	const file = path.join(import.meta.dirname, '../../../src/lib/i18n/locales', `${lang}.json`);
	const catalogue = JSON.parse(readFileSync(file, 'utf8'));
	const [ns, rest] = key.split(':') as [string, string];
	let node = catalogue[ns];
	for (const part of rest.split('.')) node = node?.[part];
	if (typeof node !== 'string') throw new Error(`no string ${lang}:${key}`);
	return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name) => String(vars[name] ?? ''));
}
