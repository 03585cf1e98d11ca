import { detectInAppBrowser } from '#lib/domain/in-app-browser.ts';

/**
 * What the page checks about the browser before anything can fail: pure functions of the
 * User-Agent and a few capability flags, so they are unit-tested and the server can run them too.
 */

/** A reason to stop before the permissions page. */
export type Gate = 'inApp' | 'insecure' | 'unsupported';

export interface BrowserFacts {
	userAgent: string;
	secureContext: boolean;
	hasGetUserMedia: boolean;
}

/**
 * The gate this browser must pass first, if any. Camera flows cannot run without getUserMedia;
 * a microphone-only flow can (the user types), so only the in-app warning applies to it.
 */
export function detectGate(facts: BrowserFacts, needs: { camera: boolean; microphone: boolean }): Gate | null {
	if (!needs.camera && !needs.microphone) return null;
	if (detectInAppBrowser(facts.userAgent)) return 'inApp';
	if (!needs.camera) return null;
	if (!facts.secureContext) return 'insecure';
	if (!facts.hasGetUserMedia) return 'unsupported';
	return null;
}

export type Platform = 'ios' | 'android' | 'desktop';

export function platformOf(userAgent: string): Platform {
	// iPadOS 13+ reports a Mac UA; its touch points give it away (checked by the caller's isMobile).
	if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) return 'ios';
	if (/\bAndroid\b/.test(userAgent)) return 'android';
	return 'desktop';
}

/** A phone or tablet: "continue on your phone" is offered only elsewhere. */
export function isMobileDevice(userAgent: string, maxTouchPoints = 0): boolean {
	return platformOf(userAgent) !== 'desktop' || /\bMobile\b/.test(userAgent) || (/\bMacintosh\b/.test(userAgent) && maxTouchPoints > 1);
}

/** Keys under `permissions.howTo` */
export type HowTo =
	| 'chromeDesktop'
	| 'chromeAndroid'
	| 'chromeIos'
	| 'safariMac'
	| 'safariIos'
	| 'firefoxDesktop'
	| 'firefoxAndroid'
	| 'edgeDesktop'
	| 'edgeMobile'
	| 'samsungInternet'
	| 'other';

/** Which "how to allow the camera again" instructions fit this browser. */
export function howToFor(userAgent: string): HowTo {
	const platform = platformOf(userAgent);
	if (/SamsungBrowser\//.test(userAgent)) return 'samsungInternet';
	if (/\bEdg(e|A|iOS)?\//.test(userAgent)) return platform === 'desktop' ? 'edgeDesktop' : 'edgeMobile';
	if (/\bCriOS\//.test(userAgent)) return 'chromeIos';
	if (/\bFxiOS\//.test(userAgent)) return 'safariIos';
	if (/\bFirefox\//.test(userAgent)) return platform === 'android' ? 'firefoxAndroid' : 'firefoxDesktop';
	if (platform === 'ios') return 'safariIos';
	if (/(Chrome|Chromium)\//.test(userAgent)) return platform === 'android' ? 'chromeAndroid' : 'chromeDesktop';
	if (/\bSafari\//.test(userAgent) && /\bMacintosh\b/.test(userAgent)) return 'safariMac';
	return 'other';
}

/** Whether the device has a camera at all (labels need permission, kinds do not). */
export async function hasCamera(): Promise<boolean | null> {
	if (typeof navigator === 'undefined' || !navigator.mediaDevices?.enumerateDevices) return null;
	try {
		return (await navigator.mediaDevices.enumerateDevices()).some((d) => d.kind === 'videoinput');
	} catch {
		return null;
	}
}
