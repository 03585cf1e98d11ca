/**
 * Which printed text of a data page is which field: a caption ("Surname / Nom", "Date of birth")
 * and the value printed under it (or after it on its line). Pure: positions are in the page's own
 * frame (x along the text, y down the page), from the server's text detection.
 */
import type { VizField, VizText } from './viz-compare.ts';

export interface PlacedText extends VizText {
	x0: number;
	x1: number;
	y0: number;
	y1: number;
}

/**
 * Caption words, in the languages the data pages of ICAO states print most (English, French,
 * German, Spanish, Italian, Dutch, Polish, Nordic), lower case without diacritics or spaces (the
 * recogniser often runs a small caption's words together: `Dateofbirth/Datedenaissance`).
 * `segments`: words that count only as a whole part of the caption (`Name / Nom`), since they are
 * inside other captions (`Prénoms`). `not`: captions that contain the words but are another field
 * ("Place of birth", "Given names"). Order matters: given names are tried before surnames.
 */
const CAPTIONS: readonly { field: VizField; words: readonly string[]; segments?: readonly string[]; not?: readonly string[] }[] = [
	{ field: 'firstName', words: ['givenname', 'forename', 'firstname', 'prenom', 'vorname', 'nombre', 'voornamen', 'imiona', 'fornavn', 'etunimet', 'fornamn'], segments: ['nome', 'nomi'] },
	{ field: 'lastName', words: ['surname', 'familyname', 'lastname', 'nachname', 'familienname', 'apellido', 'cognome', 'achternaam', 'nazwisko', 'efternavn', 'sukunimi', 'efternamn'], segments: ['nom', 'name', 'names'], not: ['birth', 'naissance', 'geburt'] },
	{
		field: 'documentNumber',
		words: ['passportno', 'documentno', 'cardno', 'passno', 'docno', 'passportnumber', 'documentnumber', 'cardnumber', 'nodupasseport', 'nodudocument', 'passnummer', 'dokumentnummer', 'ausweisnummer', 'numerodedocumento', 'numerodepasaporte', 'paspoortnummer', 'numerdokumentu', 'numerpaszportu']
	},
	{ field: 'dateOfBirth', words: ['dateofbirth', 'birth', 'naissance', 'geburt', 'nacimiento', 'nascita', 'geboorte', 'urodzenia', 'fodsel', 'fodelse', 'syntyma'], not: ['place', 'lieu', 'geburtsort', 'lugar', 'luogo', 'plaats', 'miejsce', 'sted'] },
	{ field: 'expiryDate', words: ['expiry', 'expiration', 'expires', 'validuntil', 'valablejusqu', 'gultigbis', 'ablaufdatum', 'caducidad', 'scadenza', 'vervaldatum', 'waznydo', 'udlob', 'giltbis'] }
];

/** Whether `word` occurs in `text` with at most one glyph wrong, missing or extra (words of 6 letters or more; shorter ones exactly). */
export function containsWord(text: string, word: string): boolean {
	if (text.includes(word)) return true;
	if (word.length < 6) return false;
	// Approximate substring match (Sellers): the least edit distance of `word` to any substring of `text`.
	let prev = new Array(text.length + 1).fill(0);
	for (let i = 1; i <= word.length; i++) {
		const cur = [i];
		for (let j = 1; j <= text.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (word[i - 1] === text[j - 1] ? 0 : 1));
		prev = cur;
	}
	return Math.min(...prev) <= 1;
}

const plain = (s: string) => s.toLowerCase().normalize('NFD').replace(/\p{M}+/gu, '');

/** The field a text is the caption of, or null. */
export function captionOf(text: string): VizField | null {
	const p = plain(text);
	const joined = p.replace(/[^a-z/]/g, '');
	const segments = p.split(/[/|()\-,:;]+|\d+\.?/).map((x) => x.replace(/[^a-z]/g, '')).filter(Boolean);
	for (const c of CAPTIONS) {
		const found = c.words.some((w) => containsWord(joined, w)) || (c.segments ?? []).some((w) => segments.includes(w));
		if (found && !(c.not ?? []).some((w) => joined.includes(w))) return c.field;
	}
	return null;
}

/**
 * Words of other captions and headings (`Type`, `PASSEPORT`, `REMARQUES`): a text made of them only
 * is not a value, though it may sit under a caption (a caption wrapped onto two lines, a heading).
 */
const OTHER_CAPTION_WORDS = new Set(['type', 'code', 'passport', 'passeport', 'pasaporte', 'reisepass', 'paspoort', 'paszport', 'passaporto', 'document', 'documento', 'dokument', 'du', 'de', 'of', 'no', 'nationality', 'nationalite', 'nacionalidad', 'staatsangehorigkeit', 'sex', 'sexe', 'sexo', 'geschlecht', 'authority', 'autorite', 'autoridad', 'behorde', 'remarks', 'remarques', 'observations', 'observaciones', 'signature', 'firma', 'unterschrift', 'holder', 'titulaire', 'issue', 'delivrance', 'place', 'lieu', 'height', 'taille', 'personal', 'personnel', 'visa', 'card', 'carte', 'identity', 'identite', 'also', 'known', 'as']);

function isOtherCaption(text: string): boolean {
	const words = plain(text).split(/[^a-z]+/).filter(Boolean);
	return words.length > 0 && words.every((w) => OTHER_CAPTION_WORDS.has(w));
}

const height = (t: PlacedText) => t.y1 - t.y0;

/**
 * For each caption found, the value that belongs to it: the nearest text starting under the
 * caption (its left edge near the caption's, its top within about two caption heights below),
 * itself no caption. A field captioned twice (bilingual pages) keeps the nearer value.
 */
export function findLabelledValues(texts: readonly PlacedText[]): Partial<Record<VizField, PlacedText>> {
	const out: Partial<Record<VizField, { value: PlacedText; gap: number }>> = {};
	const captions = texts.map((t) => captionOf(t.text));
	texts.forEach((caption, i) => {
		const field = captions[i];
		if (!field) return;
		const h = Math.max(1, height(caption));
		let best: { value: PlacedText; gap: number } | null = null;
		texts.forEach((value, j) => {
			if (j === i || captions[j] || !/[A-Za-z0-9]/.test(value.text) || isOtherCaption(value.text)) return;
			const gap = value.y0 - caption.y1;
			// Under the caption, left-aligned with it (values are printed flush with their caption).
			if (gap < -0.5 * h || gap > 2.2 * h) return;
			if (Math.abs(value.x0 - caption.x0) > 2.5 * h) return;
			// A value is printed at least as large as its caption, never much smaller.
			if (height(value) < 0.7 * h) return;
			if (!best || gap < best.gap) best = { value, gap };
		});
		const prev = out[field];
		if (best && (!prev || (best as { gap: number }).gap < prev.gap)) out[field] = best;
	});
	return Object.fromEntries(Object.entries(out).map(([f, v]) => [f, v.value])) as Partial<Record<VizField, PlacedText>>;
}
