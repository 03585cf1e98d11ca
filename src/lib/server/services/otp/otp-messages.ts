import type { SupportedLang } from '#lib/domain/langs.ts';

/** Default passcode messages per language; a node's emailTemplate / smsTemplate replaces them. */
const MESSAGES: Record<SupportedLang, { subject: string; text: string }> = {
	en: { subject: 'Your verification code', text: 'Your verification code is {{code}}. It expires in {{minutes}} min. Do not share it with anyone.' },
	it: { subject: 'Il tuo codice di verifica', text: 'Il tuo codice di verifica è {{code}}. Scade tra {{minutes}} min. Non condividerlo con nessuno.' },
	de: { subject: 'Ihr Bestätigungscode', text: 'Ihr Bestätigungscode lautet {{code}}. Er läuft in {{minutes}} Min. ab. Geben Sie ihn an niemanden weiter.' },
	fr: { subject: 'Votre code de vérification', text: 'Votre code de vérification est {{code}}. Il expire dans {{minutes}} min. Ne le communiquez à personne.' },
	es: { subject: 'Tu código de verificación', text: 'Tu código de verificación es {{code}}. Caduca en {{minutes}} min. No lo compartas con nadie.' },
	pt: { subject: 'O seu código de verificação', text: 'O seu código de verificação é {{code}}. Expira em {{minutes}} min. Não o partilhe com ninguém.' },
	ru: { subject: 'Ваш код подтверждения', text: 'Ваш код подтверждения: {{code}}. Он действует {{minutes}} мин. Никому его не сообщайте.' },
	ja: { subject: '認証コード', text: '認証コードは {{code}} です。有効期限は {{minutes}} 分です。誰にも教えないでください。' },
	id: { subject: 'Kode verifikasi Anda', text: 'Kode verifikasi Anda adalah {{code}}. Berlaku {{minutes}} menit. Jangan bagikan kepada siapa pun.' },
	no: { subject: 'Bekreftelseskoden din', text: 'Bekreftelseskoden din er {{code}}. Den utløper om {{minutes}} min. Ikke del den med noen.' },
	zh: { subject: '您的验证码', text: '您的验证码是 {{code}}，{{minutes}} 分钟内有效。请勿告诉任何人。' },
	'zh-TW': { subject: '您的驗證碼', text: '您的驗證碼是 {{code}}，{{minutes}} 分鐘內有效。請勿告訴任何人。' },
	'zh-HK': { subject: '你的驗證碼', text: '你的驗證碼是 {{code}}，{{minutes}} 分鐘內有效。請勿告訴任何人。' }
};

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k: string) => values[k] ?? m);

export function passcodeMessage(lang: SupportedLang, code: string, expirySeconds: number, template?: string): { subject: string; text: string } {
	const base = MESSAGES[lang] ?? MESSAGES.en;
	const values = { code, minutes: String(Math.max(1, Math.round(expirySeconds / 60))) };
	// A template without {{code}} would send a message without the code: append it.
	const text = template ? (template.includes('{{code}}') ? fill(template, values) : `${fill(template, values)} ${code}`) : fill(base.text, values);
	return { subject: base.subject, text };
}
