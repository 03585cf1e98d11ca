import { getApp } from '#lib/server/app.ts';
import { methodNotAllowed } from '#lib/server/http/api-route.ts';
import { json } from '#lib/server/http/error-response.ts';
import { pageRoute } from '#lib/server/http/page-route.ts';

/**
 * The passcode messages of a `/demo` session, for the page's "sandbox" panel: a person trying the
 * demo has no mailbox behind it. Sandbox demo sessions only; everything else gets 404.
 */
export const GET = pageRoute(async (_event, principal) => json({ messages: await getApp().sandboxOutbox.forDemoPage(principal) }));

export const fallback = methodNotAllowed(['GET']);
