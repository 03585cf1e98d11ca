import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { describe, expect, it } from 'vitest';
import { qrPath } from './qr-path.ts';

// The reader would fetch its WASM from a CDN: hand it the file the package ships.
const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer } });

describe('qrPath', () => {
	it('draws a QR code that a scanner reads back as the hand-over link', async () => {
		const url = 'https://verify.example.com/verify?handoff=ho_AbCdEfGhIjKlMnOpQrStUvWx';
		const { size, d } = qrPath(url);
		expect(size).toBeGreaterThanOrEqual(29);
		const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size * 8}" height="${size * 8}" shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/><path d="${d}" fill="#000"/></svg>`;
		const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
		const results = await readBarcodes({ data: new Uint8ClampedArray(data), width: info.width, height: info.height, colorSpace: 'srgb' }, { formats: ['QRCode'] });
		expect(results.map((r) => r.text)).toEqual([url]);
	});
});
