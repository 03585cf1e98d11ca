/**
 * Content sniffing by magic bytes. Upload endpoints and safe-fetch decide what a file is from these
 * bytes only; a client's `Content-Type` header or file name is never trusted.
 */

export type SniffedMediaType =
	| 'image/jpeg'
	| 'image/png'
	| 'image/webp'
	| 'image/gif'
	| 'image/avif'
	| 'image/heic'
	| 'video/webm'
	| 'video/x-matroska'
	| 'video/mp4'
	| 'video/quicktime'
	| 'video/3gpp'
	| 'audio/mp4';

/** Pass at least this many leading bytes (fewer only if the file is shorter). */
export const SNIFF_BYTES = 4096;

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const satisfies readonly SniffedMediaType[];
export const VIDEO_TYPES = ['video/webm', 'video/mp4', 'video/quicktime'] as const satisfies readonly SniffedMediaType[];

const ascii = (b: Uint8Array, offset: number, text: string) => {
	if (b.length < offset + text.length) return false;
	for (let i = 0; i < text.length; i++) if (b[offset + i] !== text.charCodeAt(i)) return false;
	return true;
};
const readAscii = (b: Uint8Array, offset: number, len: number) =>
	String.fromCharCode(...b.subarray(offset, offset + len));

/** The MIME type that the leading bytes of a file prove, or null when they prove none we know. */
export function sniffMediaType(bytes: Uint8Array): SniffedMediaType | null {
	const b = bytes;
	if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
	// The PNG signature is followed by the mandatory IHDR chunk.
	if (ascii(b, 0, '\x89PNG\r\n\x1a\n') && ascii(b, 12, 'IHDR')) return 'image/png';
	if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP') && ascii(b, 12, 'VP8')) return 'image/webp';
	if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return 'image/gif';
	if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return sniffEbml(b);
	if (ascii(b, 4, 'ftyp')) return sniffIsoBmff(b);
	return null;
}

/** True when the bytes sniff as one of `allowed`. */
export function isAllowedMedia(bytes: Uint8Array, allowed: readonly SniffedMediaType[]): boolean {
	const t = sniffMediaType(bytes);
	return t !== null && allowed.includes(t);
}

function sniffIsoBmff(b: Uint8Array): SniffedMediaType | null {
	if (b.length < 12) return null;
	const boxSize = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
	// An ftyp box holds the major brand, a minor version and whole 4-byte compatible brands.
	if (boxSize < 16 || boxSize > 4096 || boxSize % 4 !== 0) return null;
	const brands = [readAscii(b, 8, 4)];
	for (let o = 16; o + 4 <= Math.min(boxSize, b.length); o += 4) brands.push(readAscii(b, o, 4));
	const major = brands[0];
	if (major === 'qt  ') return 'video/quicktime';
	if (major === 'avif' || major === 'avis' || (major === 'mif1' && brands.includes('avif'))) return 'image/avif';
	if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'].includes(major)) return 'image/heic';
	if (major === 'M4A ' || major === 'M4B ') return 'audio/mp4';
	if (major.startsWith('3gp') || major.startsWith('3g2')) return 'video/3gpp';
	return 'video/mp4';
}

/** Reads an EBML variable-length integer; `keepMarker` for element ids. */
function readVint(b: Uint8Array, offset: number, keepMarker: boolean): { value: number; length: number } | null {
	const first = b[offset];
	if (first === undefined || first === 0) return null;
	let length = 1;
	while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
	if (length > 8 || offset + length > b.length) return null;
	let value = keepMarker ? first : first & (0xff >> length);
	for (let i = 1; i < length; i++) value = value * 256 + b[offset + i];
	return { value, length };
}

/** WebM and Matroska share the EBML header; its DocType element tells them apart. */
function sniffEbml(b: Uint8Array): SniffedMediaType | null {
	const headerSize = readVint(b, 4, false);
	if (!headerSize) return null;
	let o = 4 + headerSize.length;
	const end = Math.min(b.length, o + headerSize.value);
	while (o < end) {
		const id = readVint(b, o, true);
		if (!id) return null;
		const size = readVint(b, o + id.length, false);
		if (!size) return null;
		const dataStart = o + id.length + size.length;
		if (id.value === 0x4282) {
			if (dataStart + size.value > b.length) return null;
			const docType = readAscii(b, dataStart, size.value).replace(/\0+$/, '');
			if (docType === 'webm') return 'video/webm';
			if (docType === 'matroska') return 'video/x-matroska';
			return null;
		}
		o = dataStart + size.value;
	}
	return null;
}
