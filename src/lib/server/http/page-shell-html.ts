import type { PreloadLink } from '#lib/domain/page/page-intro.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };
const attr = (value: string) => value.replace(/[&"<>]/g, (c) => ESCAPES[c]);

/**
 * Fills the placeholders of `src/app.html` that a page's load decides: the html `lang` attribute and
 * the `<link rel="preload">`s of files a later step needs. They are written into the HTML here, not
 * by the page's Svelte template: a preload only matters while the browser parses the first response,
 * and rendering a list in the template would put Svelte's list code (1.4 KB gzipped) into the first
 * load of every hosted page.
 */
export function fillPageShell(html: string, locals: { lang?: string; preload?: readonly PreloadLink[] }): string {
	const links = (locals.preload ?? []).map((l) => `<link rel="preload" href="${attr(l.href)}" as="${attr(l.as)}" crossorigin="anonymous" fetchpriority="low">`).join('');
	return html.replace('%lang%', attr(locals.lang ?? 'en')).replace('%preload%', links);
}
