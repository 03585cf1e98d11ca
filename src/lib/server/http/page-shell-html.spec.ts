import { describe, expect, it } from 'vitest';
import { fillPageShell } from './page-shell-html.ts';

const SHELL = '<html lang="%lang%"><head><meta charset="utf-8">%preload%</head><body></body></html>';

describe('fillPageShell', () => {
	it('writes the page language and one preload link per file, low priority and CORS-mode like the fetch that uses it', () => {
		const html = fillPageShell(SHELL, { lang: 'zh-TW', preload: [{ href: '/models/a.wasm', as: 'fetch' }, { href: '/models/b.tflite', as: 'fetch' }] });
		expect(html).toBe(
			'<html lang="zh-TW"><head><meta charset="utf-8">' +
				'<link rel="preload" href="/models/a.wasm" as="fetch" crossorigin="anonymous" fetchpriority="low">' +
				'<link rel="preload" href="/models/b.tflite" as="fetch" crossorigin="anonymous" fetchpriority="low">' +
				'</head><body></body></html>'
		);
	});

	it('leaves nothing of the placeholders on a page without them set', () => {
		expect(fillPageShell(SHELL, {})).toBe('<html lang="en"><head><meta charset="utf-8"></head><body></body></html>');
	});

	it('escapes what it writes into attributes', () => {
		const html = fillPageShell(SHELL, { lang: 'x"><script>', preload: [{ href: '/a"b<c>&d', as: 'fetch' }] });
		expect(html).not.toContain('<script>');
		expect(html).toContain('lang="x&quot;&gt;&lt;script&gt;"');
		expect(html).toContain('href="/a&quot;b&lt;c&gt;&amp;d"');
	});
});
