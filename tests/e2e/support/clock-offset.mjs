// Test-only preload (`node --import`): shifts the server's clock by the number of milliseconds in
// the file VERIFLOW_TEST_CLOCK_FILE, so a test can make a link expire without waiting for it.
import { readFileSync } from 'node:fs';

const file = process.env.VERIFLOW_TEST_CLOCK_FILE;
if (file) {
	const realNow = Date.now.bind(Date);
	let offset = 0;
	let readAt = 0;
	Date.now = () => {
		const t = realNow();
		if (t - readAt > 100) {
			readAt = t;
			try {
				offset = Number(readFileSync(file, 'utf8').trim()) || 0;
			} catch {
				offset = 0;
			}
		}
		return t + offset;
	};
}
