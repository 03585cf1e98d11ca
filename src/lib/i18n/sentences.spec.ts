import { describe, expect, it } from 'vitest';
import { sentences } from './sentences.ts';

describe('sentences', () => {
	it('joins Latin-script phrases with ". " and leaves the last one as it is', () => {
		expect(sentences('en', 'Show the front of your document', 'Move the document closer')).toBe('Show the front of your document. Move the document closer');
		expect(sentences('de', 'Nicht akzeptiert.', 'Noch 4 Versuche')).toBe('Nicht akzeptiert. Noch 4 Versuche');
	});

	it('joins Chinese and Japanese phrases with 。 and no space', () => {
		expect(sentences('ja', '書類の表面を映してください', '書類全体が枠内に収まるようにしてください')).toBe('書類の表面を映してください。書類全体が枠内に収まるようにしてください');
		expect(sentences('zh-TW', '不接受此證件。', '剩餘 4 次')).toBe('不接受此證件。剩餘 4 次');
	});

	it('drops empty phrases', () => {
		expect(sentences('en', 'Scan your document', '', ' ')).toBe('Scan your document');
	});
});
