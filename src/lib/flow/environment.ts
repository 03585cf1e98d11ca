/**
 * What the page checks about the browser before anything can fail: pure functions of the
 * User-Agent and a few capability flags, so they are unit-tested and the server can run them too.
 */

/** A reason to stop before the permissions page. */
export type Gate = 'inApp' | 'insecure' | 'unsupported';

export interface BrowserFacts {
	/**
	 * An in-app browser, as the server read it from the request's User-Agent (`detectInAppBrowser`):
	 * its list of apps stays out of the page's first load.
	 */
	inApp: boolean;
	secureContext: boolean;
	hasGetUserMedia: boolean;
}

/**
 * The gate this browser must pass first, if any. Camera flows cannot run without getUserMedia;
 * a microphone-only flow can (the user types), so only the in-app warning applies to it.
 */
export function detectGate(facts: BrowserFacts, needs: { camera: boolean; microphone: boolean }): Gate | null {
	if (!needs.camera && !needs.microphone) return null;
	if (facts.inApp) return 'inApp';
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

/** Whether the device has a camera at all (labels need permission, kinds do not). */
export async function hasCamera(): Promise<boolean | null> {
	if (typeof navigator === 'undefined' || !navigator.mediaDevices?.enumerateDevices) return null;
	try {
		return (await navigator.mediaDevices.enumerateDevices()).some((d) => d.kind === 'videoinput');
	} catch {
		return null;
	}
}
