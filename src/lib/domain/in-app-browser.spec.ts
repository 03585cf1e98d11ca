import { describe, expect, it } from 'vitest';
import { IN_APP_UAS, REGULAR_UAS } from '../../../tests/fixtures/report/user-agents.ts';
import { detectInAppBrowser } from './in-app-browser.ts';

describe('detectInAppBrowser', () => {
	it.each([
		['instagramIos', 'Instagram'],
		['instagramAndroid', 'Instagram'],
		['facebookIos', 'Facebook'],
		['facebookAndroid', 'Facebook'],
		['messengerIos', 'Messenger'],
		['messengerAndroid', 'Messenger'],
		['tiktokAndroid', 'TikTok'],
		['tiktokIos', 'TikTok'],
		['snapchatIos', 'Snapchat'],
		['lineIos', 'LINE'],
		['wechatIos', 'WeChat'],
		['wechatAndroid', 'WeChat'],
		['linkedinIos', 'LinkedIn'],
		['twitterIos', 'Twitter'],
		['twitterAndroid', 'Twitter'],
		['androidWebView', 'Android WebView'],
		['iosWebView', 'iOS WebView']
	] as const)('%s → %s', (key, expected) => {
		expect(detectInAppBrowser(IN_APP_UAS[key])).toBe(expected);
	});

	it.each(Object.entries(REGULAR_UAS))('%s is a regular browser', (_key, ua) => {
		expect(detectInAppBrowser(ua)).toBeUndefined();
	});

	it.each([undefined, null, '', 'curl/8.5.0', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'])(
		'%j is not an in-app browser',
		(ua) => {
			expect(detectInAppBrowser(ua)).toBeUndefined();
		}
	);
});
