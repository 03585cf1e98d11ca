/**
 * A field the recogniser was less sure of than this (mrz-decode.ts field confidence) makes the
 * reading uncertain: the page asks for another capture instead of passing a possibly wrong value.
 * Chosen on the generated set (scripts/eval/documents-synthetic.ts), never on the shared fixtures:
 * there, wrongly read names scored at most 0.68 and 90 % of rightly read ones above 0.8.
 */
export const MIN_FIELD_CONFIDENCE = 0.75;
