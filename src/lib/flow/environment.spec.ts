import { describe, expect, it } from 'vitest';
import { IN_APP_UAS, REGULAR_UAS } from '../../../tests/fixtures/report/user-agents.ts';
import { detectInAppBrowser } from '#lib/domain/in-app-browser.ts';
import { detectGate, isMobileDevice, platformOf } from './environment.ts';
import { howToFor } from './how-to.ts';

/** The facts as the page gets them: the in-app verdict is the server's, from the same User-Agent. */
const facts = (userAgent: string, secureContext = true, hasGetUserMedia = true) => ({ inApp: !!detectInAppBrowser(userAgent), secureContext, hasGetUserMedia });

const both = { camera: true, microphone: true };

describe('detectGate', () => {
	it('sends in-app browsers to "open in your browser" before anything is asked', () => {
		for (const ua of Object.values(IN_APP_UAS)) expect(detectGate(facts(ua), both), ua).toBe('inApp');
		expect(detectGate(facts(IN_APP_UAS.instagramIos), { camera: false, microphone: true })).toBe('inApp');
	});

	it('lets regular browsers through', () => {
		for (const ua of Object.values(REGULAR_UAS)) expect(detectGate(facts(ua), both), ua).toBeNull();
	});

	it('stops camera flows on insecure pages and without getUserMedia, but not typing-only flows', () => {
		const ua = REGULAR_UAS.chromeLinux;
		expect(detectGate(facts(ua, false, false), both)).toBe('insecure');
		expect(detectGate(facts(ua, true, false), both)).toBe('unsupported');
		expect(detectGate(facts(ua, true, false), { camera: false, microphone: true })).toBeNull();
		expect(detectGate(facts(IN_APP_UAS.instagramIos), { camera: false, microphone: false })).toBeNull();
	});
});

describe('browser facts', () => {
	it('tells phones from desktops, iPadOS included', () => {
		expect(isMobileDevice(REGULAR_UAS.chromeAndroid)).toBe(true);
		expect(isMobileDevice(REGULAR_UAS.safariIphone)).toBe(true);
		expect(isMobileDevice(REGULAR_UAS.chromeLinux)).toBe(false);
		expect(isMobileDevice(REGULAR_UAS.safariMac)).toBe(false);
		expect(isMobileDevice(REGULAR_UAS.safariMac, 5)).toBe(true);
		expect(platformOf(REGULAR_UAS.safariIpad)).toBe('ios');
	});

	it('picks the re-enable instructions of each browser', () => {
		expect(howToFor(REGULAR_UAS.chromeLinux)).toBe('chromeDesktop');
		expect(howToFor(REGULAR_UAS.chromeAndroid)).toBe('chromeAndroid');
		expect(howToFor(REGULAR_UAS.chromeIos)).toBe('chromeIos');
		expect(howToFor(REGULAR_UAS.safariIphone)).toBe('safariIos');
		expect(howToFor(REGULAR_UAS.safariMac)).toBe('safariMac');
		expect(howToFor(REGULAR_UAS.firefoxWindows)).toBe('firefoxDesktop');
		expect(howToFor(REGULAR_UAS.samsungInternet)).toBe('samsungInternet');
		expect(howToFor(REGULAR_UAS.edgeIos)).toBe('edgeMobile');
		expect(howToFor('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0')).toBe('edgeDesktop');
		expect(howToFor('Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0')).toBe('firefoxAndroid');
		expect(howToFor('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36')).toBe('chromeDesktop');
		expect(howToFor('curl/8.0')).toBe('other');
	});
});
