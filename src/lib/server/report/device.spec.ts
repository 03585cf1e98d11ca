import { describe, expect, it } from 'vitest';
import { IN_APP_UAS, REGULAR_UAS } from '../../../../tests/fixtures/report/user-agents.ts';
import { parseBrandList, parseDevice } from './device.ts';

const CHROME_WIN_UA =
	'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const EDGE_WIN_UA = `${CHROME_WIN_UA} Edg/124.0.2478.51`;

describe('parseDevice from the User-Agent alone', () => {
	it.each([
		[
			'Safari on iPhone',
			REGULAR_UAS.safariIphone,
			{ browserName: 'Safari', browserVersion: '17.4.1', osName: 'iOS', osVersion: '17.4.1', platform: 'iOS', deviceType: 'mobile', vendor: 'Apple', model: 'iPhone' }
		],
		[
			'Safari on iPad',
			REGULAR_UAS.safariIpad,
			{ browserName: 'Safari', osName: 'iOS', osVersion: '16.6', deviceType: 'tablet', vendor: 'Apple', model: 'iPad' }
		],
		['Chrome on iOS', REGULAR_UAS.chromeIos, { browserName: 'Chrome', browserVersion: '124.0.6367.88', osName: 'iOS', deviceType: 'mobile' }],
		['Firefox on iOS', REGULAR_UAS.firefoxIos, { browserName: 'Firefox', osName: 'iOS', deviceType: 'mobile' }],
		[
			'Samsung Internet',
			REGULAR_UAS.samsungInternet,
			{ browserName: 'Samsung Internet for Android', browserVersion: '24.0', osName: 'Android', osVersion: '13', deviceType: 'mobile' }
		],
		['Chrome on Linux', REGULAR_UAS.chromeLinux, { browserName: 'Chrome', osName: 'Linux', platform: 'Linux', deviceType: 'desktop' }],
		['Firefox on Windows', REGULAR_UAS.firefoxWindows, { browserName: 'Firefox', browserVersion: '125.0', osName: 'Windows', platform: 'Windows', deviceType: 'desktop' }],
		['Edge on Windows', EDGE_WIN_UA, { browserName: 'Microsoft Edge', browserVersion: '124.0.2478.51', osName: 'Windows', deviceType: 'desktop' }],
		['Safari on a Mac', REGULAR_UAS.safariMac, { browserName: 'Safari', browserVersion: '17.4', osName: 'macOS', platform: 'macOS', deviceType: 'desktop', vendor: 'Apple' }],
		[
			'Chrome on an Android tablet',
			'Mozilla/5.0 (Linux; Android 12; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
			{ browserName: 'Chrome', osName: 'Android', osVersion: '12', deviceType: 'tablet' }
		]
	])('%s', (_name, ua, expected) => {
		const device = parseDevice({ 'user-agent': ua });
		expect(device).toMatchObject({ ...expected, userAgent: ua });
		expect(device.inAppBrowser).toBeUndefined();
	});

	it.each([
		['Windows NT 10.0 (10 or 11)', REGULAR_UAS.firefoxWindows],
		['macOS frozen at 10.15.7', REGULAR_UAS.safariMac],
		['Chrome reduced "Android 10; K"', REGULAR_UAS.chromeAndroid]
	])('reports no osVersion for %s', (_name, ua) => {
		expect(parseDevice({ 'user-agent': ua }).osVersion).toBeUndefined();
	});

	it('keeps Windows versions that are not ambiguous', () => {
		const ua = 'Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36';
		expect(parseDevice({ 'user-agent': ua })).toMatchObject({ osName: 'Windows', osVersion: '7' });
	});

	it('flags in-app browsers and keeps the underlying browser data', () => {
		expect(parseDevice({ 'user-agent': IN_APP_UAS.instagramIos })).toMatchObject({
			inAppBrowser: 'Instagram',
			osName: 'iOS',
			osVersion: '17.1',
			deviceType: 'mobile'
		});
		expect(parseDevice({ 'user-agent': IN_APP_UAS.facebookAndroid })).toMatchObject({
			inAppBrowser: 'Facebook',
			osName: 'Android',
			osVersion: '12',
			deviceType: 'mobile'
		});
		expect(parseDevice({ 'user-agent': IN_APP_UAS.androidWebView }).inAppBrowser).toBe('Android WebView');
	});

	it('has nothing to say about a missing or non-browser User-Agent', () => {
		expect(parseDevice({})).toEqual({ deviceType: 'unknown' });
		expect(parseDevice({ 'user-agent': '   ' })).toEqual({ deviceType: 'unknown' });
		expect(parseDevice({ 'user-agent': 'curl/8.5.0' })).toMatchObject({ deviceType: 'unknown', userAgent: 'curl/8.5.0' });
	});

	it('caps an absurdly long User-Agent', () => {
		const device = parseDevice({ 'user-agent': `${CHROME_WIN_UA} ${'x'.repeat(10_000)}` });
		expect(device.userAgent).toHaveLength(1024);
		expect(device.browserName).toBe('Chrome');
	});
});

describe('parseDevice with Client Hints', () => {
	it('uses the full version list and platform version on Windows 11', () => {
		const headers = new Headers({
			'user-agent': CHROME_WIN_UA,
			'sec-ch-ua': '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"',
			'sec-ch-ua-mobile': '?0',
			'sec-ch-ua-platform': '"Windows"',
			'sec-ch-ua-platform-version': '"15.0.0"',
			'sec-ch-ua-full-version-list': '"Chromium";v="124.0.6367.91", "Google Chrome";v="124.0.6367.91", "Not-A.Brand";v="99.0.0.0"'
		});
		expect(parseDevice(headers)).toMatchObject({
			browserName: 'Chrome',
			browserVersion: '124.0.6367.91',
			osName: 'Windows',
			osVersion: '11',
			platform: 'Windows',
			deviceType: 'desktop'
		});
	});

	it('maps Windows platform versions 1–10 to Windows 10', () => {
		const device = parseDevice({ 'user-agent': CHROME_WIN_UA, 'sec-ch-ua-platform': '"Windows"', 'sec-ch-ua-platform-version': '"10.0.0"' });
		expect(device.osVersion).toBe('10');
	});

	it('gives the real Android version and model behind a reduced UA', () => {
		const device = parseDevice({
			'user-agent': REGULAR_UAS.chromeAndroid,
			'sec-ch-ua': '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"',
			'sec-ch-ua-mobile': '?1',
			'sec-ch-ua-platform': '"Android"',
			'sec-ch-ua-platform-version': '"14.0.0"',
			'sec-ch-ua-model': '"Pixel 8"'
		});
		expect(device).toMatchObject({ osName: 'Android', osVersion: '14', model: 'Pixel 8', deviceType: 'mobile', browserName: 'Chrome' });
	});

	it('gives the real macOS version behind the frozen 10.15.7', () => {
		const ua =
			'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
		const device = parseDevice({ 'user-agent': ua, 'sec-ch-ua-platform': '"macOS"', 'sec-ch-ua-platform-version': '"14.4.1"' });
		expect(device).toMatchObject({ osName: 'macOS', osVersion: '14.4.1', platform: 'macOS' });
	});

	it('lets Sec-CH-UA-Mobile mark a phone whose UA looks like a desktop', () => {
		const device = parseDevice({ 'user-agent': REGULAR_UAS.chromeLinux, 'sec-ch-ua-mobile': '?1' });
		expect(device.deviceType).toBe('mobile');
	});

	it('takes the Edge brand for Edge', () => {
		const device = parseDevice({
			'user-agent': EDGE_WIN_UA,
			'sec-ch-ua-full-version-list': '"Chromium";v="124.0.6367.119", "Microsoft Edge";v="124.0.2478.97", "Not-A.Brand";v="99.0.0.0"'
		});
		expect(device).toMatchObject({ browserName: 'Microsoft Edge', browserVersion: '124.0.2478.97' });
	});

	it('falls back to the hints when there is no User-Agent', () => {
		const device = parseDevice({
			'sec-ch-ua': '"Not A(Brand";v="8", "Chromium";v="132", "Brave";v="132"',
			'sec-ch-ua-platform': '"Linux"'
		});
		expect(device).toEqual({ browserName: 'Brave', browserVersion: '132', osName: 'Linux', platform: 'Linux', deviceType: 'unknown' });
	});
});

describe('parseBrandList', () => {
	it('drops GREASE brands and unescapes', () => {
		expect(parseBrandList('"Not/A)Brand";v="8", "Chromium";v="126", "Google Chrome";v="126"')).toEqual([
			{ brand: 'Chromium', version: '126' },
			{ brand: 'Google Chrome', version: '126' }
		]);
		expect(parseBrandList('";Not A Brand";v="99", "Opera";v="109"')).toEqual([{ brand: 'Opera', version: '109' }]);
		expect(parseBrandList(undefined)).toEqual([]);
		expect(parseBrandList('garbage')).toEqual([]);
	});
});
