import Bowser from 'bowser';
import { detectInAppBrowser, type InAppBrowser } from '#lib/domain/in-app-browser.ts';

/**
 * The session report's `device`, from the User-Agent and the User-Agent Client Hints the browser
 * sent (Chromium browsers send `Sec-CH-UA`, `-Mobile`, `-Platform` by default; the high-entropy
 * `-Platform-Version`, `-Full-Version-List` and `-Model` only after the page asked for them with
 * `Accept-CH`). Parsed with bowser (MIT). Both sources are client-supplied: this describes what the
 * browser says about itself, not verified facts.
 *
 * Reduced/frozen User-Agent values are not reported as if they were precise: Chromium's
 * "Android 10; K", "Windows NT 10.0" (Windows 10 and 11 alike) and "Mac OS X 10_15_7" (every macOS
 * since 11 in every major browser) give no `osVersion` unless a client hint supplies the real one.
 * iPadOS Safari asks for desktop sites by default and is then indistinguishable from a Mac here.
 */

export type DeviceType = 'mobile' | 'tablet' | 'desktop' | 'unknown';

export interface DeviceInfo {
	browserName?: string;
	browserVersion?: string;
	osName?: string;
	osVersion?: string;
	/** Client Hints platform vocabulary: Windows, macOS, Linux, Android, iOS, Chrome OS… */
	platform?: string;
	deviceType: DeviceType;
	vendor?: string;
	model?: string;
	/** Social or messaging app web view the page runs in, if any. */
	inAppBrowser?: InAppBrowser;
	userAgent?: string;
}

/** Request headers: a fetch `Headers` or Node's lower-case header record. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined | null>;

const MAX_UA_LENGTH = 1024;

function header(source: HeaderSource, name: string): string | undefined {
	if (source instanceof Headers) return source.get(name) ?? undefined;
	const v = source[name] ?? source[name.toLowerCase()];
	return Array.isArray(v) ? v.join(', ') : (v ?? undefined);
}

interface Brand {
	brand: string;
	version: string;
}

/** Parses a structured-header brand list: `"Chromium";v="124", "Google Chrome";v="124"`. */
export function parseBrandList(value: string | undefined): Brand[] {
	if (!value) return [];
	const brands: Brand[] = [];
	for (const m of value.matchAll(/"((?:[^"\\]|\\.)*)"\s*;\s*v\s*=\s*"((?:[^"\\]|\\.)*)"/g)) {
		const brand = m[1].replace(/\\(.)/g, '$1');
		// GREASE entries ("Not-A.Brand", "Not A(Brand", ";Not A Brand") exist to be ignored.
		if (/not.?a.?brand/i.test(brand)) continue;
		brands.push({ brand, version: m[2].replace(/\\(.)/g, '$1') });
	}
	return brands;
}

/** A structured-header string (`"Windows"`) unquoted; undefined when empty. */
function sfString(value: string | undefined): string | undefined {
	if (!value) return undefined;
	const v = value.trim().replace(/^"(.*)"$/, '$1').trim();
	return v || undefined;
}

const brandKey = (name: string) =>
	name
		.toLowerCase()
		.replace(/^(google|microsoft)\s+/, '')
		.replace(/ for android$/, '')
		.trim();

/** Bowser's name for a Client Hints brand where they differ. */
const BRAND_TO_NAME: Record<string, string> = {
	'Google Chrome': 'Chrome',
	'Microsoft Edge': 'Microsoft Edge',
	'Samsung Internet': 'Samsung Internet for Android'
};

function windowsVersion(platformVersion: string): string | undefined {
	const [major, minor] = platformVersion.split('.').map(Number);
	if (!Number.isFinite(major)) return undefined;
	if (major >= 13) return '11';
	if (major >= 1) return '10';
	return ({ 1: '7', 2: '8', 3: '8.1' } as Record<number, string>)[minor];
}

/** Trailing ".0" groups dropped: "14.0.0" → "14", "14.4.1" stays. */
const trimVersion = (v: string) => v.replace(/(\.0)+$/, '');

export function parseDevice(headers: HeaderSource): DeviceInfo {
	const rawUa = header(headers, 'user-agent')?.trim() ?? '';
	const userAgent = rawUa.slice(0, MAX_UA_LENGTH);
	const fullList = parseBrandList(header(headers, 'sec-ch-ua-full-version-list'));
	const brands = fullList.length ? fullList : parseBrandList(header(headers, 'sec-ch-ua'));
	const chMobile = header(headers, 'sec-ch-ua-mobile')?.trim();
	const chPlatform = sfString(header(headers, 'sec-ch-ua-platform'));
	const chPlatformVersion = sfString(header(headers, 'sec-ch-ua-platform-version'));
	const chModel = sfString(header(headers, 'sec-ch-ua-model'));

	// Bowser throws on an empty string; no UA at all is a bot or a script.
	const parsed = userAgent
		? Bowser.parse(userAgent, {
				brands,
				mobile: chMobile === '?1' ? true : chMobile === '?0' ? false : undefined,
				platform: chPlatform,
				platformVersion: chPlatformVersion,
				model: chModel
			})
		: undefined;

	let browserName = parsed?.browser.name || undefined;
	let browserVersion = parsed?.browser.version || undefined;
	const preferred =
		(browserName && brands.find((b) => brandKey(b.brand) === brandKey(browserName!))) ||
		// UA says nothing useful: take the most specific brand (not the shared "Chromium" engine brand).
		(!browserName ? (brands.find((b) => b.brand !== 'Chromium') ?? brands[0]) : undefined);
	if (preferred) {
		browserName ??= BRAND_TO_NAME[preferred.brand] ?? preferred.brand;
		// The full version list is precise; the UA's "124.0.0.0" is reduced.
		if (fullList.length || !browserVersion) browserVersion = preferred.version;
	}

	let osName = parsed?.os.name || undefined;
	let osVersion: string | undefined = parsed?.os.version || undefined;
	if (osName === 'Windows') osVersion = parsed?.os.versionName || undefined;
	if (osName === 'Windows' && osVersion === '10') osVersion = undefined; // could be 10 or 11
	if (osName === 'macOS' && osVersion?.startsWith('10.15')) osVersion = undefined; // frozen
	if (osName === 'Android' && /Android 10; K\)/.test(userAgent)) osVersion = undefined; // reduced
	if (chPlatformVersion) {
		const platformName = chPlatform ?? osName;
		if (platformName === 'Windows') osVersion = windowsVersion(chPlatformVersion) ?? osVersion;
		else if (platformName === 'macOS' || platformName === 'Android' || platformName === 'iOS') {
			osVersion = trimVersion(chPlatformVersion);
		}
	}
	if (!osName && chPlatform && chPlatform !== 'Unknown') osName = chPlatform;

	const platform = chPlatform && chPlatform !== 'Unknown' ? chPlatform : osName;

	let deviceType: DeviceType;
	switch (parsed?.platform.type) {
		case 'mobile':
		case 'tablet':
		case 'desktop':
			deviceType = parsed.platform.type;
			break;
		default:
			deviceType = 'unknown';
	}
	// Chromium sends ?1 only on phones; tablets send ?0 and keep bowser's verdict.
	if (chMobile === '?1') deviceType = 'mobile';

	const vendor = parsed?.platform.vendor || undefined;
	const model = chModel ?? (parsed?.platform.model || undefined);
	const inAppBrowser = detectInAppBrowser(userAgent);

	return {
		...(browserName ? { browserName } : {}),
		...(browserVersion ? { browserVersion } : {}),
		...(osName ? { osName } : {}),
		...(osVersion ? { osVersion } : {}),
		...(platform ? { platform } : {}),
		deviceType,
		...(vendor ? { vendor } : {}),
		...(model ? { model } : {}),
		...(inAppBrowser ? { inAppBrowser } : {}),
		...(userAgent ? { userAgent } : {})
	};
}
