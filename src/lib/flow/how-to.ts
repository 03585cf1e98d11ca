import { platformOf } from './environment.ts';

/**
 * How to allow the camera again, by browser: only the permissions page's refusal screen needs it, so
 * it is not part of the page's first load.
 */

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
