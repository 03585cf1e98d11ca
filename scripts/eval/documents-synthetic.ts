/**
 * Document reading on the generated set of scripts/eval/synthetic-documents.ts: per damage, how many
 * MRZ were read exactly, how many had every field right, how many the document_scan node would
 * accept, and how many it would accept with a field WRONG (the number that must be zero: a wrong
 * reading that passes is worse than a retry). "Accepted" is the node's own judgement
 * (server/documents/document-verdict.ts) on the reading.
 *
 *   npx tsx scripts/eval/documents-synthetic.ts [--count 504] [--seed 1] [--limit N] [--damages clean,blur] [--indices 3,17]
 *     [--jsonl FILE] [--temperature T] [--mrz-decode text]   (text: the reader before constrained decoding)
 *     [--no-viz]   (the reader without the visual-zone cross-check)
 *     [--as small|glareMrz|thumb|cutEdge|bent|turned|shadow|motion|lowLight|hologram]   (every document under one damage outside the rotation: EXTRA_DAMAGES)
 *     [--portrait FILE]   (a real photo printed as the portrait of pages that print one, not a grey
 *     placeholder: then the jsonl's `portrait` says whether the reader found it)
 *     [--tamper firstName]   (every document that prints names printed with that field unlike its MRZ)
 *     [--journey [--max-tries N]]   (each document through the node's tries, as a user would go on)
 *
 * The journey (--journey): a user who is asked for another capture takes one (a new photo of the same
 * document: new camera damage, the same print, stamps and all) until the node passes it or the tries
 * run out (the node's default, document-scan.contract.ts, or --max-tries). The node's own rule for a
 * retake: a capture that reads exactly the MRZ of an earlier one refused as uncertain passes, flagged
 * (`confirmedByRetake`). Reported: on which try each document passed, how many never did (the user
 * ends in `scanTimeout`: the document reader's false rejection), and how many passed with a field wrong.
 *
 * The visual zone: on tampered documents (one printed field unlike the MRZ), how many readings
 * reported MRZ_VIZ_MISMATCH naming that field (detected); on genuine ones, how many reported a
 * mismatch at all (false mismatches); and how many readings the VIZ spared a retake (every
 * uncertain field vouched for by the print) and of those, how many had a field wrong.
 *
 * Writes bench/results/documents-synthetic.md (or --out FILE). Documents are balanced over damages,
 * so --limit 120 reads 10 of each.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExtractedData } from '../../src/lib/documents/extracted-data.ts';
import { MIN_FIELD_CONFIDENCE } from '../../src/lib/documents/field-confidence.ts';
import { parseMrzLines } from '../../src/lib/documents/mrz-parse.ts';
import { DocumentReader, uncertainFields, type ReadDocumentResult } from '../../src/lib/server/documents/document-reader.service.ts';
import { judgeDocument, mayBeConfirmed } from '../../src/lib/server/documents/document-verdict.ts';
import { DOCUMENT_SCAN_DEFAULTS } from '../../src/lib/domain/nodes/document-scan.contract.ts';
import { EXTRA_DAMAGES, SYNTHETIC_DAMAGES, syntheticDocuments, type SyntheticDamage, type VizFieldName } from './synthetic-documents.ts';

const VIZ_FIELD_NAMES: readonly VizFieldName[] = ['lastName', 'firstName', 'documentNumber', 'dateOfBirth', 'expiryDate'];

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NOW = new Date('2026-11-22T12:00:00Z');
const FIELDS = ['firstName', 'lastName', 'documentNumber', 'dateOfBirth', 'expiryDate', 'nationality', 'issuingCountry', 'sex', 'documentType', 'documentCode', 'optionalData', 'personalNumber'] as const;

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Row {
	n: number;
	read: number;
	exact: number;
	fieldsRight: number;
	fieldsTotal: number;
	allFieldsRight: number;
	accepted: number;
	wrongAccepted: number;
	lowConfidence: number;
	/** Refused as uncertain, then a second photo of the same document read the same MRZ (the node passes it, flagged). */
	acceptedOnRetake: number;
	wrongAcceptedOnRetake: number;
	/**
	 * Refused, and a second capture that reads the same MRZ would pass as confirmed: what a user who
	 * frames or covers the document the same way twice gets (the retake above is a new photo, held
	 * otherwise). The node takes no photo sent again as a second capture, so this is a new photo alike.
	 */
	readAlikePasses: number;
	/** Read with a field wrong that its fieldConfidence reports as sure, whatever the verdict. */
	wrongSure: number;
	readAlikeWrong: number;
	/** Genuine documents whose MRZ was read, and of them those reported MRZ_VIZ_MISMATCH. */
	genuineRead: number;
	falseMismatch: number;
	/** Tampered documents whose MRZ was read, and of them those whose mismatch named the tampered field. */
	tamperedRead: number;
	tamperDetected: number;
	/** Readings with a VIZ field compared at all. */
	vizChecked: number;
	/** Uncertain readings passed at once because the VIZ vouched for every uncertain field; of them, wrong. */
	vizLifted: number;
	vizLiftedWrong: number;
	ms: number[];
	notes: string[];
	/** --journey: documents passed at each try (index 0: the first), never passed, passed with a field wrong (of them flagged as confirmed by a retake). */
	passedAtTry: number[];
	neverPassed: number;
	journeyWrong: number;
	journeyWrongConfirmed: number;
}

interface Journey {
	/** The try (1-based) the node passed the document at; null when the tries ran out. */
	passedAt: number | null;
	wrong: string[];
	confirmed: boolean;
}

/**
 * The node's tries for one document (see --journey above): `first` is the first capture's reading,
 * `read` reads the capture of a given retake.
 */
async function journey(first: ReadDocumentResult | null, read: (retake: number) => Promise<ReadDocumentResult | null>, expected: ExtractedData, maxTries: number): Promise<Journey> {
	const uncertain = new Set<string>();
	let result = first;
	for (let k = 0; k < maxTries; k++) {
		if (k > 0) result = await read(k);
		const digest = result?.mrz ? result.mrz.lines.join('\n') : null;
		const confirmed = digest !== null && uncertain.has(digest);
		// A capture that fails to read at all is a try used, as the node counts it.
		const judgement = result ? judgeDocument(result, { failed: k, max: maxTries }, { confirmed }) : null;
		if (result && judgement?.kind === 'accept') return { passedAt: k + 1, wrong: wrongFields(expected, result.mrz ? result.fields : {}), confirmed };
		if (result && digest !== null && mayBeConfirmed(result)) uncertain.add(digest);
	}
	return { passedAt: null, wrong: [], confirmed: false };
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);
const median = (xs: number[]) => (xs.length ? xs.slice().sort((a, b) => a - b)[xs.length >> 1] : NaN);

function wrongFields(expected: ExtractedData, got: ExtractedData): string[] {
	return FIELDS.filter((f) => (expected[f] ?? '') !== (got[f] ?? ''));
}

async function main() {
	const count = Number(arg('count') ?? 504);
	const seed = Number(arg('seed') ?? 1);
	const only = arg('damages')?.split(',') as SyntheticDamage[] | undefined;
	// --as DAMAGE: every document under that damage (one of EXTRA_DAMAGES, outside the rotation).
	const as = arg('as') as SyntheticDamage | undefined;
	if (as && !([...SYNTHETIC_DAMAGES, ...EXTRA_DAMAGES] as string[]).includes(as)) throw new Error(`unknown damage ${as}`);
	// --tamper FIELD: every document that prints its names (not TD1) printed with that field unlike
	// its MRZ (an attack run: does a doubted MRZ field ever take the forged print's value?).
	const tamper = arg('tamper') as VizFieldName | undefined;
	if (tamper && !VIZ_FIELD_NAMES.includes(tamper)) throw new Error(`unknown field ${tamper}`);
	const portraitFile = arg('portrait');
	const portrait = portraitFile ? { href: `data:image/jpeg;base64,${(await sharp(readFileSync(portraitFile)).rotate().resize({ width: 360 }).jpeg().toBuffer()).toString('base64')}`, style: 'colour' as const } : undefined;
	let docs = syntheticDocuments(count, seed, { ...(as ? { damage: as } : {}), ...(tamper ? { tampered: tamper } : {}), ...(portrait ? { portrait } : {}) });
	if (only) docs = docs.filter((d) => only.includes(d.damage));
	docs = docs.slice(0, Number(arg('limit') ?? docs.length));
	const indices = arg('indices')?.split(',').map(Number);
	if (indices) docs = docs.filter((d) => indices.includes(d.index));
	const temperature = arg('temperature');
	const crossCheckViz = !process.argv.includes('--no-viz');
	const reader = await DocumentReader.load(temperature ? { mrzScoreTemperature: Number(temperature) } : {});
	const rows = new Map<SyntheticDamage | 'all', Row>();
	const row = (k: SyntheticDamage | 'all') => {
		let r = rows.get(k);
		if (!r) rows.set(k, (r = { n: 0, read: 0, exact: 0, fieldsRight: 0, fieldsTotal: 0, allFieldsRight: 0, accepted: 0, wrongAccepted: 0, lowConfidence: 0, acceptedOnRetake: 0, wrongAcceptedOnRetake: 0, readAlikePasses: 0, readAlikeWrong: 0, wrongSure: 0, genuineRead: 0, falseMismatch: 0, tamperedRead: 0, tamperDetected: 0, vizChecked: 0, vizLifted: 0, vizLiftedWrong: 0, ms: [], notes: [], passedAtTry: [], neverPassed: 0, journeyWrong: 0, journeyWrongConfirmed: 0 }));
		return r;
	};
	for (const d of [...SYNTHETIC_DAMAGES, ...EXTRA_DAMAGES]) if (docs.some((x) => x.damage === d)) row(d);
	for (const doc of docs) {
		const expected = parseMrzLines(doc.mrz, { now: NOW }).fields;
		const bytes = await doc.render();
		let result: ReadDocumentResult | null = null;
		try {
			result = await reader.read(bytes, { mode: 'SINGLE_SIDE', now: NOW, encodeImages: false, mrzDecode: arg('mrz-decode') === 'text' ? 'text' : 'constrained', crossCheckViz });
		} catch (e) {
			row(doc.damage).notes.push(`#${doc.index} ${doc.layout}: error ${(e as Error).message}`);
		}
		const got = result?.mrz ? result.fields : {};
		const exact = result?.mrz?.lines.join('\n') === doc.mrz.join('\n');
		const wrong = wrongFields(expected, got);
		const accepted = result !== null && judgeDocument(result, { failed: 0, max: 99 }).kind === 'accept';
		const low = result?.problems.includes('LOW_CONFIDENCE') ?? false;
		// Fields read wrong that the reading reports as sure (MIN_FIELD_CONFIDENCE or more): what an integrator
		// reading fieldConfidence would take as seen.
		const fc = result?.mrz?.fieldConfidence;
		const wrongSure = fc ? wrong.filter((f) => (fc[(f === 'documentType' ? 'documentCode' : f) as keyof typeof fc] ?? 0) >= MIN_FIELD_CONFIDENCE) : [];
		// A second capture reading this same MRZ: the node's retake rule decides alone.
		const readAlike = result !== null && !accepted && mayBeConfirmed(result) && judgeDocument(result, { failed: 1, max: 99 }, { confirmed: true }).kind === 'accept';
		// The node asks an uncertain reading for another capture and passes it when that capture reads
		// the same MRZ: photograph the same document again (new camera damage) and see.
		let retakeConfirms = false;
		let retake: ReadDocumentResult | null = null;
		if (result?.mrz && !accepted && low && judgeDocument(result, { failed: 0, max: 99 }, { confirmed: true }).kind === 'accept') {
			try {
				const again = (retake = await reader.read(await doc.render(1), { mode: 'SINGLE_SIDE', now: NOW, encodeImages: false, mrzDecode: arg('mrz-decode') === 'text' ? 'text' : 'constrained', crossCheckViz }));
				retakeConfirms = again.mrz?.lines.join('\n') === result.mrz.lines.join('\n') && judgeDocument(again, { failed: 1, max: 99 }, { confirmed: true }).kind === 'accept';
			} catch {
				// an unreadable retake confirms nothing
			}
		}
		const maxTries = Number(arg('max-tries') ?? DOCUMENT_SCAN_DEFAULTS.maxTries);
		const readRetake = async (k: number) => {
			try {
				return await reader.read(await doc.render(k), { mode: 'SINGLE_SIDE', now: NOW, encodeImages: false, mrzDecode: arg('mrz-decode') === 'text' ? 'text' : 'constrained', crossCheckViz });
			} catch {
				return null;
			}
		};
		// The retake read above is the journey's second capture: read once, used twice.
		const trip = process.argv.includes('--journey') ? await journey(result, (k) => (k === 1 && retake ? Promise.resolve(retake) : readRetake(k)), expected, maxTries) : null;
		const mismatched = result?.viz?.mismatched ?? [];
		const lifted = Boolean(result?.mrz && result.viz && uncertainFields(result.mrz).length > 0 && uncertainFields(result.mrz, { confirmed: result.viz.confirmed, mismatched: [] }).length === 0);
		for (const r of [row(doc.damage), row('all')]) {
			r.n++;
			if (result?.mrz && doc.viz.tampered) {
				r.tamperedRead++;
				if (mismatched.includes(doc.viz.tampered)) r.tamperDetected++;
			} else if (result?.mrz) {
				r.genuineRead++;
				if (mismatched.length) r.falseMismatch++;
			}
			if (result?.viz && Object.values(result.viz.fields).some((c) => c !== 'notChecked')) r.vizChecked++;
			if (lifted) r.vizLifted++;
			if (lifted && accepted && wrong.length) r.vizLiftedWrong++;
			if (result?.mrz) r.read++;
			if (exact) r.exact++;
			r.fieldsTotal += FIELDS.length;
			r.fieldsRight += FIELDS.length - wrong.length;
			if (wrong.length === 0) r.allFieldsRight++;
			if (accepted) r.accepted++;
			if (accepted && wrong.length > 0) r.wrongAccepted++;
			if (low) r.lowConfidence++;
			if (retakeConfirms) r.acceptedOnRetake++;
			if (retakeConfirms && wrong.length > 0) r.wrongAcceptedOnRetake++;
			if (readAlike) r.readAlikePasses++;
			if (readAlike && wrong.length > 0) r.readAlikeWrong++;
			if (wrongSure.length > 0) r.wrongSure++;
			if (result) r.ms.push(result.timings.total);
			if (trip) {
				if (trip.passedAt === null) r.neverPassed++;
				else r.passedAtTry[trip.passedAt - 1] = (r.passedAtTry[trip.passedAt - 1] ?? 0) + 1;
				if (trip.passedAt !== null && trip.wrong.length) {
					r.journeyWrong++;
					if (trip.confirmed) r.journeyWrongConfirmed++;
				}
			}
		}
		if (trip && (trip.passedAt === null || trip.passedAt > 2 || trip.wrong.length)) {
			row(doc.damage).notes.push(`#${doc.index} ${doc.layout} journey: ${trip.passedAt === null ? `never passed in ${maxTries} tries` : `passed at try ${trip.passedAt}${trip.confirmed ? ' (confirmed by a retake)' : ''}`}${trip.wrong.length ? ` WRONG [${trip.wrong.join(',')}]` : ''}`);
		}
		if (result?.viz && (mismatched.length || doc.viz.tampered)) {
			row(doc.damage).notes.push(`#${doc.index} ${doc.layout} VIZ ${doc.viz.tampered ? `tampered ${doc.viz.tampered}` : 'genuine'}: mismatched [${mismatched.join(',')}] ${JSON.stringify(result.viz.fields)} read ${JSON.stringify(result.viz.read)} printed ${JSON.stringify(doc.viz)}`);
		}
		if (!exact) {
			const tag = accepted && wrong.length ? 'WRONG-BUT-ACCEPTED' : accepted ? 'accepted' : 'refused';
			const fc = result?.mrz?.fieldConfidence;
			const conf = fc ? ` conf ${Object.entries(fc).map(([f, p]) => `${f}=${p.toFixed(3)}`).join(' ')}` : ' (text reading)';
			row(doc.damage).notes.push(`#${doc.index} ${doc.layout} ${tag}${wrong.length ? ` [${wrong.join(',')}]` : ''}: ${result?.mrz?.lines.join(' | ') ?? 'no MRZ'} (expected ${doc.mrz.join(' | ')})${result?.mrz ? conf : ''}`);
		}
		// Per-document detail (field confidences against right/wrong) for choosing the confidence bar.
		const jsonl = arg('jsonl');
		if (jsonl) appendFileSync(jsonl, JSON.stringify({ index: doc.index, damage: doc.damage, layout: doc.layout, exact, read: Boolean(result?.mrz), lines: result?.mrz?.lines ?? null, wrong, accepted, passedOnRetake: retakeConfirms, passesIfReadAlikeAgain: readAlike, wrongSure, atEdge: result?.sides.map((s) => s.mrzAtEdge) ?? null, unseen: result?.sides.map((s) => s.mrzUnseen) ?? null, checkDigitsValid: result?.mrz?.checkDigitsValid ?? null, fieldConfidence: result?.mrz?.fieldConfidence ?? null, lookalikeDoubt: result?.mrz?.lookalikeDoubt ?? [], problems: result?.problems ?? [], portrait: result ? result.portrait !== null : null, viz: result?.viz?.fields ?? null, tampered: doc.viz.tampered, inkOnly: result?.sides.some((s) => s.mrzInkOnly) ?? false, journey: trip ? { passedAt: trip.passedAt, confirmed: trip.confirmed, wrong: trip.wrong } : null, retake: retake?.mrz ? { lines: retake.mrz.lines, same: retake.mrz.lines.join('\n') === result?.mrz?.lines.join('\n'), fieldConfidence: retake.mrz.fieldConfidence ?? null, lookalikeDoubt: retake.mrz.lookalikeDoubt ?? [], problems: retake.problems } : null, expected }) + '\n');
		const minConf = result?.mrz?.fieldConfidence ? Math.min(...Object.values(result.mrz.fieldConfidence)) : null;
		process.stderr.write(`#${doc.index} ${doc.damage} ${doc.layout}: ${exact ? 'exact' : result?.mrz ? 'read' : 'unread'}${accepted ? ' accepted' : ''}${accepted && wrong.length ? ' WRONG' : ''}${low ? ' low-confidence' : ''} wrong=[${wrong.join(',')}] minConf=${minConf?.toFixed(4) ?? '-'} ${Math.round(result?.timings.total ?? 0)} ms\n`);
	}
	const lines: string[] = [];
	const vizTable = ['| damage | VIZ compared | tampered read | mismatch detected | genuine read | false mismatch | spared a retake by the VIZ / of them wrong |', '|---|---|---|---|---|---|---|'];
	for (const [k, r] of rows) vizTable.push(`| ${k} | ${r.vizChecked} | ${r.tamperedRead} | ${r.tamperDetected} (${pct(r.tamperDetected, r.tamperedRead)}) | ${r.genuineRead} | ${r.falseMismatch} (${pct(r.falseMismatch, r.genuineRead)}) | ${r.vizLifted} / ${r.vizLiftedWrong} |`);
	lines.push('# Document reading on the synthetic set', '', `${docs.length} generated documents (seed ${seed}, scripts/eval/synthetic-documents.ts), reference date ${NOW.toISOString().slice(0, 10)}; MRZ decoding: ${arg('mrz-decode') === 'text' ? 'greedy text, repaired' : 'constrained'}; visual-zone cross-check: ${crossCheckViz ? 'on' : 'off'}.`, '');
	lines.push('Exact: every MRZ character right. Fields: share of the compared extractedData values right (' + FIELDS.join(', ') + '). All fields: documents with every one right. Accepted: the document_scan node would pass the reading (scanSuccess). **Wrong-but-accepted**: accepted with a field wrong. Low confidence: the reader flagged `LOW_CONFIDENCE`. On retake: refused as uncertain, and a second photo of the same document read the same MRZ, which the node then passes with `LOW_CONFIDENCE` and `fieldConfidence` kept in its report (flagged, not silent); wrong on retake: those with a field wrong. Read alike again: refused, and a second photo that reads the same MRZ would pass so (a user who frames or covers the document alike twice; the node takes no photo sent again as a second one); wrong: of them with a field wrong. A wrong field reported sure: readings with a field wrong whose `fieldConfidence` is ' + MIN_FIELD_CONFIDENCE + ' or more (the document type counted with the document code): the field reported as seen.', '');
	lines.push('| damage | n | read | exact | fields | all fields | accepted | wrong-but-accepted | low confidence | accepted on retake (flagged) | wrong on retake (flagged) | read alike again passes / wrong | a wrong field reported sure | median ms |', '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
	for (const [k, r] of rows) lines.push(`| ${k} | ${r.n} | ${pct(r.read, r.n)} | ${pct(r.exact, r.n)} | ${pct(r.fieldsRight, r.fieldsTotal)} | ${pct(r.allFieldsRight, r.n)} | ${pct(r.accepted, r.n)} | ${r.wrongAccepted} | ${r.lowConfidence} | ${r.acceptedOnRetake} | ${r.wrongAcceptedOnRetake} | ${r.readAlikePasses} / ${r.readAlikeWrong} | ${r.wrongSure} | ${Math.round(median(r.ms))} |`);
	if (crossCheckViz) lines.push('', '## Visual zone against the MRZ', '', 'Tampered: one printed field unlike the MRZ; detected: MRZ_VIZ_MISMATCH naming that field. False mismatch: MRZ_VIZ_MISMATCH on a genuine document. Spared a retake: LOW_CONFIDENCE without the VIZ, none with it (every uncertain field vouched for by the print); wrong: of those, accepted with a field wrong.', '', ...vizTable);
	if (process.argv.includes('--journey')) {
		const maxTries = Number(arg('max-tries') ?? DOCUMENT_SCAN_DEFAULTS.maxTries);
		lines.push('', `## The node's tries (--journey, at most ${maxTries})`, '', 'Each document photographed again (new camera damage) for as long as the node asks, up to its tries; the node passes a capture it is sure of, or one that reads exactly the MRZ of an earlier capture refused as uncertain (`confirmedByRetake`, flagged). Never passed: the user ends in `scanTimeout` with a genuine document. Wrong: passed with a field wrong (flagged: passed as confirmed by a retake, with `LOW_CONFIDENCE` in the report).', '');
		lines.push('| damage | n | passed at try 1 | try 2 | try 3 or later | never passed | passed wrong (of them flagged) |', '|---|---|---|---|---|---|---|');
		for (const [k, r] of rows) {
			const later = r.passedAtTry.slice(2).reduce((a, b) => a + (b ?? 0), 0);
			lines.push(`| ${k} | ${r.n} | ${r.passedAtTry[0] ?? 0} | ${r.passedAtTry[1] ?? 0} | ${later} | ${r.neverPassed} (${pct(r.neverPassed, r.n)}) | ${r.journeyWrong} (${r.journeyWrongConfirmed}) |`);
		}
	}
	lines.push('', '## Not exact', '');
	for (const [k, r] of rows) for (const note of r.notes) lines.push(`- ${k}: ${note}`);
	const md = lines.join('\n') + '\n';
	console.log(md);
	const out = arg('out') ?? join(root, 'bench', 'results', 'documents-synthetic.md');
	mkdirSync(dirname(out), { recursive: true });
	writeFileSync(out, md);
}

await main();
