import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isLoopbackHost } from './webhook-url.ts';

describe('checkWebhookUrl', () => {
	it('accepts https anywhere and http to this machine only', () => {
		expect(checkWebhookUrl('https://hooks.example.com/veriflow')).toBe('https://hooks.example.com/veriflow');
		expect(checkWebhookUrl('http://localhost:4000/hook')).toBe('http://localhost:4000/hook');
		expect(checkWebhookUrl('http://127.0.0.1:4000/hook')).toBe('http://127.0.0.1:4000/hook');
		expect(checkWebhookUrl('http://127.8.9.10/hook')).toBe('http://127.8.9.10/hook');
		expect(checkWebhookUrl('http://[::1]:4000/')).toBe('http://[::1]:4000/');
		expect(checkWebhookUrl('http://[::ffff:127.0.0.1]:4000/')).toBe('http://[::ffff:7f00:1]:4000/');
	});

	it('refuses plain http to any other host, other schemes and credentials', () => {
		for (const url of ['http://hooks.example.com/', 'http://10.0.0.5/hook', 'http://192.168.1.2/', 'http://[::ffff:10.0.0.1]/', 'http://0.0.0.0/', 'http://localhost.example.com/']) {
			expect(() => checkWebhookUrl(url), url).toThrow(/must be https/);
		}
		expect(() => checkWebhookUrl('ftp://example.com/')).toThrow(/https, not ftp/);
		expect(() => checkWebhookUrl('https://user:pw@example.com/')).toThrow(/credentials/);
		expect(() => checkWebhookUrl('not a url')).toThrow(/Not a URL/);
	});

	it('treats IPv4-mapped loopback as loopback', () => {
		expect(isLoopbackHost('[::ffff:127.0.0.1]')).toBe(true); // URL.hostname keeps IPv6 brackets
		expect(isLoopbackHost('::ffff:127.0.0.1')).toBe(true);
		expect(isLoopbackHost('LOCALHOST.')).toBe(true);
	});
});
