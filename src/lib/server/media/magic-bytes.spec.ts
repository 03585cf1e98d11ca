import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_TYPES, isAllowedMedia, sniffMediaType } from './magic-bytes.ts';

const bytes = (...parts: (string | number[])[]) =>
	Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : p)));
const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const ftyp = (major: string, ...compatible: string[]) =>
	bytes(u32(16 + 4 * compatible.length), 'ftyp', major, [0, 0, 2, 0], ...compatible, u32(8), 'free');

/** The EBML header Chrome's MediaRecorder writes, with the given DocType. */
const ebml = (docType: string) =>
	bytes(
		[0x1a, 0x45, 0xdf, 0xa3, 0x80 | (23 + docType.length)],
		[0x42, 0x86, 0x81, 0x01], // EBMLVersion 1
		[0x42, 0xf7, 0x81, 0x01], // EBMLReadVersion 1
		[0x42, 0xf2, 0x81, 0x04], // EBMLMaxIDLength 4
		[0x42, 0xf3, 0x81, 0x08], // EBMLMaxSizeLength 8
		[0x42, 0x82, 0x80 | docType.length],
		docType,
		[0x42, 0x87, 0x81, 0x04], // DocTypeVersion
		[0x18, 0x53, 0x80, 0x67] // Segment follows
	);

describe('sniffMediaType on real encoder output', () => {
	const base = () => sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } });

	it.each([
		['jpeg', 'image/jpeg'],
		['png', 'image/png'],
		['webp', 'image/webp'],
		['gif', 'image/gif'],
		['avif', 'image/avif']
	] as const)('%s → %s', async (format, mime) => {
		const data = await base().toFormat(format).toBuffer();
		expect(sniffMediaType(new Uint8Array(data))).toBe(mime);
	});

	it('recognises lossless WebP (VP8L) too', async () => {
		const data = await base().webp({ lossless: true }).toBuffer();
		expect(sniffMediaType(data)).toBe('image/webp');
	});
});

describe('sniffMediaType on container headers', () => {
	it.each([
		[ebml('webm'), 'video/webm'],
		[ebml('matroska'), 'video/x-matroska'],
		[ftyp('isom', 'isom', 'iso2', 'avc1', 'mp41'), 'video/mp4'],
		[ftyp('mp42', 'mp42', 'isom'), 'video/mp4'],
		[ftyp('iso5', 'iso5', 'mp41'), 'video/mp4'], // Safari MediaRecorder
		[ftyp('qt  ', 'qt  '), 'video/quicktime'],
		[ftyp('heic', 'mif1', 'heic'), 'image/heic'],
		[ftyp('mif1', 'mif1', 'avif'), 'image/avif'],
		[ftyp('M4A ', 'M4A ', 'mp42'), 'audio/mp4'],
		[ftyp('3gp4', '3gp4'), 'video/3gpp']
	])('%#: → %s', (data, mime) => {
		expect(sniffMediaType(data)).toBe(mime);
	});

	it.each([
		['empty', new Uint8Array()],
		['text', bytes('hello world, this is not an image')],
		['html claiming to be png', bytes('<html><img src=x.png>')],
		['svg', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')],
		['pdf', bytes('%PDF-1.7\n')],
		['truncated jpeg', bytes([0xff, 0xd8])],
		['png signature without IHDR', bytes('\x89PNG\r\n\x1a\n', u32(13), 'JUNK')],
		['RIFF that is WAVE', bytes('RIFF', u32(36), 'WAVEfmt ')],
		['ftyp with absurd box size', bytes(u32(5), 'ftyp', 'isom')],
		['ftyp cut short', bytes(u32(24), 'ftyp', 'is')],
		['EBML of another doc type', ebml('xyzw')],
		['EBML header cut before DocType', ebml('webm').subarray(0, 20)]
	])('rejects %s', (_name, data) => {
		expect(sniffMediaType(data)).toBeNull();
	});

	it('decides by content, so a GIF is not an allowed image even when allowed types are images', () => {
		expect(isAllowedMedia(bytes('GIF89a', [1, 0, 1, 0]), IMAGE_TYPES)).toBe(false);
		expect(isAllowedMedia(bytes([0xff, 0xd8, 0xff, 0xe0]), IMAGE_TYPES)).toBe(true);
	});
});
