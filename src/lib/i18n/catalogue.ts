import type enCatalogue from './locales/en.json';

export const NAMESPACES = [
	'common',
	'link',
	'permissions',
	'handoff',
	'inapp',
	'unsupported',
	'conversation',
	'email',
	'otp',
	'face',
	'document',
	'end',
	'errors',
	'demo'
] as const satisfies readonly (keyof typeof enCatalogue)[];

export type Namespace = (typeof NAMESPACES)[number];

export interface CatalogueTree {
	[key: string]: string | CatalogueTree;
}

/**
 * The UI text of one language: namespaces (`common`, `link`, …) as top-level keys. Structural, not
 * `typeof en.json`, because plural keys differ by language (`_few` in Russian, only `_other` in
 * Japanese); locales.spec.ts checks that every file has exactly the keys English has.
 */
export type LocaleCatalogue = Record<Namespace, CatalogueTree>;

/** The English catalogue's exact shape: the source of the typed keys of `t()`. */
export type EnglishCatalogue = typeof enCatalogue;
