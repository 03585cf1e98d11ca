import { describe, expect, it } from 'vitest';
import { customizationSchema } from './settings.schema.ts';

describe('customization.endPage', () => {
	it('takes words per language and an https way back', () => {
		const parsed = customizationSchema.parse({ endPage: { heading: 'All done', textTranslates: { de: 'Fertig.' }, returnUrl: 'https://shop.example/account?tab=1' } });
		expect(parsed.endPage).toEqual({ heading: 'All done', textTranslates: { de: 'Fertig.' }, returnUrl: 'https://shop.example/account?tab=1' });
		expect(customizationSchema.safeParse({ endPage: { returnUrl: 'http://localhost:5173/back' } }).success).toBe(true);
	});

	it.each(['javascript:alert(1)', 'http://shop.example/back', 'data:text/html,hi', '/relative', 'not a url'])('refuses %s as the way back', (returnUrl) => {
		const result = customizationSchema.safeParse({ endPage: { returnUrl } });
		expect(result.success).toBe(false);
		expect(result.error!.issues[0]!.message).toBe('must be an https URL (http only for localhost)');
	});

	it('refuses fields it does not know and overlong words', () => {
		expect(customizationSchema.safeParse({ endPage: { redirect: 'https://shop.example' } }).success).toBe(false);
		expect(customizationSchema.safeParse({ endPage: { heading: 'x'.repeat(201) } }).success).toBe(false);
	});
});
