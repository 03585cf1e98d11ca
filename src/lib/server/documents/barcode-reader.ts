import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';
import { toRgba, type Raster } from '#lib/documents/raster.ts';
import { skewByProjection } from '#lib/documents/skew.ts';
import { rotateRaster } from '#lib/documents/warp.ts';

const require = createRequire(import.meta.url);
let prepared: Promise<unknown> | null = null;

/**
 * Instantiates zxing's reader from the wasm file inside the installed package (never a CDN). Once
 * per process; start-up calls it early (WARM_MODELS) so the first barcode does not wait for it.
 */
export function prepareBarcodeReader(): Promise<unknown> {
	if (!prepared) {
		const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
		prepared = prepareZXingModule({
			overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
			fireImmediately: true
		});
	}
	return prepared;
}

export interface BarcodeRead {
	format: string;
	text: string;
	/** The symbol's raw bytes, exactly as encoded. */
	bytes: Uint8Array;
}

/**
 * zxing's PDF417 detector misses symbols tilted by a few degrees and can spend seconds trying, so
 * the image is first turned upright by the tilt of its bars (column projection profile); the image
 * as given and two fixed turns follow if that fails.
 */
const MIN_TILT = 1;
const FALLBACK_ANGLES = [-5, 5] as const;

async function readOnce(image: Raster): Promise<BarcodeRead[]> {
	const rgba = toRgba(image);
	const results: ReadResult[] = await readBarcodes(
		{ data: rgba.data as Uint8ClampedArray, width: rgba.width, height: rgba.height, colorSpace: 'srgb' } as ImageData,
		{ formats: ['PDF417', 'QRCode', 'DataMatrix', 'Aztec'], textMode: 'Plain', tryHarder: true, tryRotate: true, tryInvert: false, maxNumberOfSymbols: 4 }
	);
	return results.filter((r) => r.isValid).map((r) => ({ format: r.format, text: r.text, bytes: r.bytes }));
}

/** Document barcodes: PDF417 (driving licences, ID backs), QR, Data Matrix and Aztec. */
export async function readDocumentBarcodes(image: Raster, options: { retryRotations?: boolean } = {}): Promise<BarcodeRead[]> {
	await prepareBarcodeReader();
	if (options.retryRotations === false) return readOnce(image);
	const tilt = skewByProjection(image, 15, 'columns');
	const angles = Math.abs(tilt) >= MIN_TILT ? [tilt, 0, ...FALLBACK_ANGLES] : [0, ...FALLBACK_ANGLES];
	for (const angle of angles) {
		const found = await readOnce(angle === 0 ? image : rotateRaster(image, angle, { expand: true, fill: [255, 255, 255] }).raster);
		if (found.length > 0) return found;
	}
	return [];
}
