import { classifyAddress } from '../net/ip-address.ts';

/**
 * Which URLs may be registered as webhook endpoints: https anywhere; plain http only to this
 * machine (`localhost`, 127.0.0.0/8, ::1), so local development and tests work without a
 * certificate while events (and the signed media links in them) never cross a network in clear.
 * Returns the normalised URL, or throws with a sentence for the operator.
 */
export function checkWebhookUrl(value: string): string {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new Error(`Not a URL: '${value}'`);
	}
	if (url.username || url.password) throw new Error('A webhook URL must not carry credentials; use the signing secret to authenticate deliveries');
	if (url.protocol === 'https:') return url.toString();
	if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url.toString();
	if (url.protocol === 'http:') throw new Error('A webhook URL must be https (plain http is accepted for localhost / 127.0.0.1 only)');
	throw new Error(`A webhook URL must be https, not ${url.protocol.replace(':', '')}`);
}

export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	return classifyAddress(host) === 'loopback';
}
