import { validationError } from '#lib/domain/errors.ts';
import { EVIDENCE_BODY_PART, MAX_EVIDENCE_PARTS, PART_REFERENCE } from '#lib/domain/page/evidence-parts.ts';
import { parseJson, readBody, readJson } from './body.ts';

/**
 * The evidence endpoint's body: JSON with base64 images, or multipart/form-data with the JSON in a
 * `body` part and each image a binary part it refers to as `part:NAME` (evidence-parts.ts). Either
 * way the caller gets the same JSON value, images as base64, for the node's one schema to check.
 * The cap counts the raw body while it streams in, before anything is parsed. Every part must be
 * referred to exactly once and every reference must name a part: a body that says less or more than
 * it carries is refused whole, never half taken.
 */
export async function readEvidenceBody(request: Request, maxBytes: number): Promise<unknown> {
	const type = request.headers.get('content-type') ?? '';
	if (!/^multipart\/form-data\s*;/i.test(type)) return readJson(request, maxBytes);
	if (!request.body) throw invalid("The multipart body is empty: it needs a 'body' part holding the request's JSON");
	const bytes = await readBody(request, maxBytes, 'The request needs a body');
	let form: FormData;
	try {
		form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData();
	} catch (err) {
		throw invalid(`The multipart body could not be read (a boundary that does not match the Content-Type, or a part cut short): ${(err as Error).message}`);
	}

	const parts = new Map<string, File>();
	let json: FormDataEntryValue | null = null;
	let count = 0;
	for (const [name, value] of form.entries()) {
		if (++count > MAX_EVIDENCE_PARTS + 1) throw invalid(`The multipart body has more than ${MAX_EVIDENCE_PARTS} image parts`);
		if (name === EVIDENCE_BODY_PART) {
			if (json !== null) throw invalid(`The multipart body has more than one '${EVIDENCE_BODY_PART}' part`);
			json = value;
			continue;
		}
		if (!PART_REFERENCE.test(`part:${name}`)) throw invalid(`The part name '${name.slice(0, 40)}' is not allowed (1–32 of A–Z, a–z, 0–9, _ and -)`);
		if (typeof value === 'string') throw invalid(`The part '${name}' must be a file (the image's bytes), not a text field`);
		if (parts.has(name)) throw invalid(`The multipart body has two parts named '${name}'`);
		parts.set(name, value);
	}
	if (json === null) throw invalid(`The multipart body needs a '${EVIDENCE_BODY_PART}' part holding the request's JSON`);
	const value = parseJson(typeof json === 'string' ? new TextEncoder().encode(json) : new Uint8Array(await json.arrayBuffer()), `The '${EVIDENCE_BODY_PART}' part`, `The '${EVIDENCE_BODY_PART}' part needs the request's JSON`);

	const used = new Set<string>();
	await substitute(value, async (reference, path) => {
		const name = PART_REFERENCE.exec(reference)![1];
		const part = parts.get(name);
		if (!part) throw invalid(`${path} refers to the part '${name}', which the request does not carry`);
		if (used.has(name)) throw invalid(`${path} refers to the part '${name}' a second time; each image needs its own part`);
		used.add(name);
		return Buffer.from(await part.arrayBuffer()).toString('base64');
	});
	const unused = [...parts.keys()].filter((name) => !used.has(name));
	if (unused.length) throw invalid(`The part${unused.length > 1 ? 's' : ''} ${unused.map((n) => `'${n}'`).join(', ')} ${unused.length > 1 ? 'are' : 'is'} not referred to by the '${EVIDENCE_BODY_PART}' part`);
	return value;
}

/** Replaces, in place, every string that is a part reference (the JSON is already screened: no deep nesting, no `__proto__`). */
async function substitute(root: unknown, resolve: (reference: string, path: string) => Promise<string>): Promise<void> {
	const stack: { holder: Record<string, unknown> | unknown[]; path: string }[] = [];
	if (root !== null && typeof root === 'object') stack.push({ holder: root as Record<string, unknown>, path: '' });
	while (stack.length) {
		const { holder, path } = stack.pop()!;
		const keys: (string | number)[] = Array.isArray(holder) ? holder.map((_, i) => i) : Object.keys(holder);
		for (const key of keys) {
			const at = Array.isArray(holder) ? `${path}[${key}]` : path ? `${path}.${key}` : String(key);
			const v = (holder as Record<string | number, unknown>)[key];
			if (typeof v === 'string' && PART_REFERENCE.test(v)) (holder as Record<string | number, unknown>)[key] = await resolve(v, at);
			else if (v !== null && typeof v === 'object') stack.push({ holder: v as Record<string, unknown>, path: at });
		}
	}
}

const invalid = (message: string) => validationError(message, 'invalid_multipart');
