import { describe, expect, it } from 'vitest';
import { identities, readPairs } from './face-photos.ts';

describe('face-pairs labels', () => {
	it('reads file_x,file_y,Decision rows, paths cut to base names, other rows left out', () => {
		const pairs = readPairs('file_x,file_y,Decision\nimg1.jpg,img2.jpg,Yes\ndeepface/tests/dataset/img3.jpg,img4.jpg,No\nbroken row\nimg5.jpg,img6.jpg,maybe\n');
		expect(pairs).toEqual([
			{ a: 'img1.jpg', b: 'img2.jpg', same: true },
			{ a: 'img3.jpg', b: 'img4.jpg', same: false }
		]);
	});

	it('groups photos by the genuine pairs that join them, transitively', () => {
		const ids = identities(readPairs('a,b,c\n1.jpg,2.jpg,Yes\n2.jpg,3.jpg,Yes\n4.jpg,5.jpg,Yes\n1.jpg,4.jpg,No\n6.jpg,1.jpg,No\n'));
		expect(ids.get('1.jpg')).toBe(ids.get('3.jpg'));
		expect(ids.get('4.jpg')).toBe(ids.get('5.jpg'));
		expect(ids.get('1.jpg')).not.toBe(ids.get('4.jpg'));
		expect(new Set(ids.values()).size).toBe(3);
	});

	it('refuses labels that call two photos of one group different people', () => {
		expect(() => identities(readPairs('a,b,c\n1.jpg,2.jpg,Yes\n2.jpg,3.jpg,Yes\n1.jpg,3.jpg,No\n'))).toThrow(/labels disagree/);
	});
});
