/**
 * In-app browsers (the web views inside social and messaging apps) often block or break camera and
 * microphone access, so the hosted page detects them and offers "open in your browser" before asking
 * for permissions. Pure and isomorphic: the page runs it on `navigator.userAgent`, the server on the
 * request's User-Agent for the device report.
 */

export const IN_APP_BROWSERS = [
	'Instagram',
	'Facebook',
	'Messenger',
	'TikTok',
	'Snapchat',
	'LINE',
	'WeChat',
	'LinkedIn',
	'Twitter',
	'Android WebView',
	'iOS WebView'
] as const;

export type InAppBrowser = (typeof IN_APP_BROWSERS)[number];

// Order matters: Messenger UAs carry Facebook tokens, and most Android apps also carry "; wv)".
const RULES: readonly (readonly [InAppBrowser, RegExp])[] = [
	['Messenger', /FBAN\/Messenger|MessengerForiOS|MessengerLiteForiOS|FB_IAB\/Orca-Android|FB_IAB\/MESSENGER/i],
	['Instagram', /\bInstagram[ /]\d/],
	['Facebook', /FBAN\/|FBAV\/|FB_IAB\/|\[FB[_;]|FBIOS/],
	['TikTok', /musical_ly|BytedanceWebview|\bTikTok\b|\btrill_\d/i],
	['Snapchat', /\bSnapchat\/?\d/],
	// "Line/" with a version, case-sensitive, so "Linux" and "online" never match.
	['LINE', /\bLine\/\d/],
	['WeChat', /\bMicroMessenger\//],
	['LinkedIn', /\bLinkedInApp\b/],
	['Twitter', /\bTwitter for i(?:Phone|Pad)\b|\bTwitterAndroid\b/],
	// Android System WebView marks itself with "; wv)" in the platform part.
	['Android WebView', /; wv\)/]
];

/**
 * The in-app browser a User-Agent belongs to, or undefined for a regular browser. iOS apps that
 * embed WKWebView without saying so are recognised by the missing `Safari/` token (every iOS browser
 * app, Safari, Chrome `CriOS`, Firefox `FxiOS`, Edge `EdgiOS`, keeps it).
 */
export function detectInAppBrowser(userAgent: string | null | undefined): InAppBrowser | undefined {
	if (!userAgent) return undefined;
	for (const [name, pattern] of RULES) if (pattern.test(userAgent)) return name;
	if (/\((?:iPhone|iPad|iPod);/.test(userAgent) && /AppleWebKit\//.test(userAgent) && !/\bSafari\//.test(userAgent)) {
		return 'iOS WebView';
	}
	return undefined;
}
