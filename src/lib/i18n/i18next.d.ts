import 'i18next';
import type { EnglishCatalogue } from './catalogue.ts';

// Typed keys: t('otp:wrongCode', { count }) is checked against en.json, so a typo or a key that
// the locale test would not know about fails the type check instead of showing a raw key.
declare module 'i18next' {
	interface CustomTypeOptions {
		defaultNS: 'common';
		resources: EnglishCatalogue;
	}
}
