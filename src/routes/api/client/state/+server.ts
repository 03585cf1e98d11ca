import { getApp } from '#lib/server/app.ts';
import { json } from '#lib/server/http/error-response.ts';
import { methodNotAllowed } from '#lib/server/http/api-route.ts';
import { pageRoute } from '#lib/server/http/page-route.ts';

/** The session as the page sees it (a reload resumes from here; an observer polls it). */
export const GET = pageRoute(async (_event, principal) => json(await getApp().pages.state(principal)));

/** "I'm still here" after the idle warning: counts as activity, answers with the state. */
export const POST = pageRoute(async (_event, principal) => json(await getApp().pages.keepAlive(principal)));

export const fallback = methodNotAllowed(['GET', 'POST']);
