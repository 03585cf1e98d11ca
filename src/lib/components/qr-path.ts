import QRCode from 'qrcode';

/**
 * A QR code as one SVG path (a 1×1 square per dark module, in module units), so the page draws
 * it with plain markup: no canvas, no data URL, no {@html}. `size` includes the quiet zone.
 */
export function qrPath(text: string, quietZone = 4): { size: number; d: string } {
	const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
	const n = modules.size;
	let d = '';
	for (let y = 0; y < n; y++) {
		let x = 0;
		while (x < n) {
			if (!modules.get(y, x)) {
				x++;
				continue;
			}
			// One rectangle per horizontal run keeps the path short.
			const start = x;
			while (x < n && modules.get(y, x)) x++;
			d += `M${start + quietZone} ${y + quietZone}h${x - start}v1h-${x - start}z`;
		}
	}
	return { size: n + quietZone * 2, d };
}
