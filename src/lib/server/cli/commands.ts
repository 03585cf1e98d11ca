import { parseArgs } from 'node:util';
import { isSupportedLang, SUPPORTED_LANGS } from '#lib/domain/langs.ts';
import type { App } from '../app.ts';
import type { CliResult } from './cli-result.ts';
import { WEBHOOK_DELIVERY_HELP, webhookDeliveryCommand } from './webhook-commands.ts';

const HELP = `Usage: npm run cli -- <group> <command> [options]

  accounts list
  accounts create --name NAME
  accounts frame-ancestors ACCOUNT_ID [ORIGIN …]   origins allowed to embed the hosted page (none = clear)

  keys create --env test|live [--account ACCOUNT_ID] [--name NAME]   shows the key once
  keys list [--account ACCOUNT_ID]
  keys revoke KEY_ID

  webhooks add --account ACCOUNT_ID --url URL [--env test|live] [--secret whsec_…]   shows the secret once
  webhooks list [--account ACCOUNT_ID]
  webhooks remove ENDPOINT_ID
${WEBHOOK_DELIVERY_HELP}

  avatars list | avatars put --id ID --name NAME --gender male|female|unknown --image URL_OR_PATH | avatars remove ID
  langs list | langs enable CODE | langs disable CODE`;

const ok = (output: string): CliResult => ({ code: 0, output });
const fail = (output: string): CliResult => ({ code: 1, output });

const time = (ms: number | null) => (ms ? new Date(ms).toISOString().replace('.000Z', 'Z') : '-');
const table = (rows: string[][]) => {
	if (!rows.length) return '(none)';
	const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
	return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
};

/** Runs one CLI command against an app. Output is text for a person. */
export async function runCommand(app: App, argv: string[]): Promise<CliResult> {
	const [group, command, ...rest] = argv;
	try {
		switch (`${group ?? ''} ${command ?? ''}`.trim()) {
			case 'accounts list': {
				const rows = await app.accounts.listAccounts();
				return ok(table([['ACCOUNT', 'NAME', 'CREATED', 'FRAME ANCESTORS'], ...rows.map((a) => [a.id, a.name, time(a.createdAt), a.frameAncestors.join(' ') || '-'])]));
			}
			case 'accounts create': {
				const { values } = parseArgs({ args: rest, options: { name: { type: 'string' } } });
				if (!values.name) return fail('accounts create needs --name');
				return ok(await app.accounts.createAccount(values.name));
			}
			case 'accounts frame-ancestors': {
				const [accountId, ...origins] = rest;
				if (!accountId) return fail('accounts frame-ancestors needs ACCOUNT_ID');
				const bad = origins.filter((o) => !/^https?:\/\/[^\s/]+$/.test(o));
				if (bad.length) return fail(`Not an origin (scheme://host[:port]): ${bad.join(', ')}`);
				if (!(await app.accounts.setFrameAncestors(accountId, origins))) return fail(`No account '${accountId}'`);
				return ok(origins.length ? `Account ${accountId} may be embedded by: ${origins.join(' ')}` : `Cleared; account ${accountId} uses FRAME_ANCESTORS only`);
			}
			case 'keys create': {
				const { values } = parseArgs({ args: rest, options: { env: { type: 'string' }, account: { type: 'string' }, name: { type: 'string' } } });
				if (values.env !== 'test' && values.env !== 'live') return fail('keys create needs --env test or --env live');
				const accountId = values.account ?? (await app.accounts.createAccount(values.name ?? `Account ${new Date(app.now()).toISOString().slice(0, 10)}`));
				const { id, key } = await app.accounts.createApiKey(accountId, values.env);
				return ok(`Created ${id} for account ${accountId}.\nAPI key (shown once, store it now): ${key}`);
			}
			case 'keys list': {
				const { values } = parseArgs({ args: rest, options: { account: { type: 'string' } } });
				const rows = await app.accounts.listApiKeys(values.account);
				return ok(table([['KEY', 'ACCOUNT', 'ENV', 'PREFIX', 'CREATED', 'LAST USED', 'REVOKED'], ...rows.map((k) => [k.id, k.accountId, k.env, `${k.prefix}…`, time(k.createdAt), time(k.lastUsedAt), time(k.revokedAt)])]));
			}
			case 'keys revoke': {
				if (!rest[0]) return fail('keys revoke needs KEY_ID (see keys list)');
				return (await app.accounts.revokeApiKey(rest[0])) ? ok(`Revoked ${rest[0]}`) : fail(`No active key '${rest[0]}'`);
			}
			case 'webhooks add': {
				const { values } = parseArgs({ args: rest, options: { account: { type: 'string' }, url: { type: 'string' }, env: { type: 'string' }, secret: { type: 'string' } } });
				if (!values.account || !values.url) return fail('webhooks add needs --account and --url');
				if (values.env !== undefined && values.env !== 'test' && values.env !== 'live') return fail('--env must be test or live');
				if (values.secret !== undefined && !values.secret.startsWith('whsec_')) return fail('--secret must be whsec_ followed by base64 of 24–64 random bytes (e.g. whsec_$(openssl rand -base64 32)), or left out to generate one');
				const { id, secret } = await app.accounts.addWebhookEndpoint(values.account, values.url, { env: values.env as 'test' | 'live' | undefined, secret: values.secret });
				return ok(`Added ${id}.\nSigning secret (shown once): ${secret}`);
			}
			case 'webhooks list': {
				const { values } = parseArgs({ args: rest, options: { account: { type: 'string' } } });
				const rows = await app.accounts.listWebhookEndpoints(values.account);
				return ok(table([['ENDPOINT', 'ACCOUNT', 'ENV', 'URL', 'CREATED', 'REMOVED'], ...rows.map((w) => [w.id, w.accountId, w.env ?? 'both', w.url, time(w.createdAt), time(w.disabledAt)])]));
			}
			case 'webhooks remove': {
				if (!rest[0]) return fail('webhooks remove needs ENDPOINT_ID');
				return (await app.accounts.removeWebhookEndpoint(rest[0])) ? ok(`Removed ${rest[0]}`) : fail(`No active endpoint '${rest[0]}'`);
			}
			case 'webhooks attempts':
			case 'webhooks deliveries':
			case 'webhooks resend':
				return await webhookDeliveryCommand(app, command!, rest);
			case 'avatars list': {
				const rows = await app.catalogue.avatars();
				return ok(table([['AVATAR', 'NAME', 'GENDER', 'IMAGE'], ...rows.map((a) => [a.id, a.name, a.gender, a.imageUrl])]));
			}
			case 'avatars put': {
				const { values } = parseArgs({ args: rest, options: { id: { type: 'string' }, name: { type: 'string' }, gender: { type: 'string' }, image: { type: 'string' }, voice: { type: 'string' } } });
				if (!values.id || !/^[a-z0-9_-]{1,64}$/.test(values.id)) return fail('avatars put needs --id (lower-case letters, digits, _ or -)');
				if (!values.name || !values.image) return fail('avatars put needs --name and --image');
				if (!/^(https:\/\/|\/)/.test(values.image)) return fail('--image must be an https URL or a path served by this app (/avatars/…)');
				const gender = values.gender ?? 'unknown';
				if (gender !== 'male' && gender !== 'female' && gender !== 'unknown') return fail('--gender must be male, female or unknown');
				await app.catalogue.putAvatar({ id: values.id, name: values.name, gender, image: values.image, voice: values.voice ?? null });
				return ok(`Saved avatar ${values.id}; settings.avatars fired`);
			}
			case 'avatars remove': {
				if (!rest[0]) return fail('avatars remove needs ID');
				return (await app.catalogue.removeAvatar(rest[0])) ? ok(`Removed ${rest[0]}; settings.avatars fired`) : fail(`No avatar '${rest[0]}'`);
			}
			case 'langs list': {
				const rows = await app.catalogue.allLangs();
				return ok(table([['LANG', 'TITLE', 'ENABLED'], ...rows.map((l) => [l.id, l.title, l.enabled ? 'yes' : 'no'])]));
			}
			case 'langs enable':
			case 'langs disable': {
				const code = rest[0];
				if (!isSupportedLang(code)) return fail(`Language must be one of ${SUPPORTED_LANGS.join(', ')}`);
				const enabled = command === 'enable';
				return (await app.catalogue.setLangEnabled(code, enabled)) ? ok(`${code} ${enabled ? 'enabled' : 'disabled'}; settings.langs fired`) : fail(`No language '${code}'`);
			}
			case '':
			case 'help':
				return ok(HELP);
			default:
				return fail(`Unknown command '${argv.join(' ')}'.\n\n${HELP}`);
		}
	} catch (err) {
		return fail(`Error: ${(err as Error).message}`);
	}
}
