import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalMediaStore } from './local-media-store.ts';
import {
	InvalidMediaKeyError,
	isValidMediaKey,
	MediaTooLargeError,
	RangeNotSatisfiableError,
	type MediaObject
} from './media-store.ts';

let dir: string;
let store: LocalMediaStore;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), 'veriflow-media-'));
	store = new LocalMediaStore(join(dir, 'media'));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

const text = async (obj: MediaObject | null) => Buffer.from(await new Response(obj!.body).arrayBuffer()).toString();

/** Every file under the store root, hidden ones included, relative to it. */
async function filesOnDisk(): Promise<string[]> {
	try {
		return (await readdir(store.root, { recursive: true, withFileTypes: true }))
			.filter((e) => e.isFile())
			.map((e) => join(e.parentPath, e.name).slice(store.root.length + 1))
			.sort();
	} catch {
		return [];
	}
}

describe('LocalMediaStore', () => {
	it('round-trips bytes with their content type and size', async () => {
		const put = await store.put('sessions/s1/m1', new TextEncoder().encode('hello'), 'image/jpeg');
		expect(put).toEqual({ key: 'sessions/s1/m1', size: 5 });
		const obj = await store.get('sessions/s1/m1');
		expect(obj).toMatchObject({ size: 5, contentType: 'image/jpeg' });
		expect(await text(obj)).toBe('hello');
		expect(await store.exists('sessions/s1/m1')).toBe(true);
		expect(await readFile(join(store.root, 'sessions', 's1', 'm1'), 'utf8')).toBe('hello');
	});

	it('accepts web streams and Node streams', async () => {
		const web = new ReadableStream<Uint8Array>({
			start(c) {
				c.enqueue(new TextEncoder().encode('ab'));
				c.enqueue(new TextEncoder().encode('cd'));
				c.close();
			}
		});
		expect((await store.put('w', web, 'video/webm')).size).toBe(4);
		expect(await text(await store.get('w'))).toBe('abcd');
		await store.put('n', Readable.from([Buffer.from('xy'), Buffer.from('z')]), 'video/mp4');
		expect(await text(await store.get('n'))).toBe('xyz');
	});

	it('returns null / false for missing objects and deletes idempotently', async () => {
		expect(await store.get('nope')).toBeNull();
		expect(await store.exists('nope')).toBe(false);
		await store.delete('nope');
		await store.put('a/b', new Uint8Array([1]), 'image/png');
		await store.delete('a/b');
		expect(await store.exists('a/b')).toBe(false);
		expect(await filesOnDisk()).toEqual([]);
		// Empty directories are pruned, but the root stays.
		expect(await readdir(store.root)).toEqual([]);
	});

	it('overwrites atomically: a reader holding the old object still reads it whole', async () => {
		await store.put('k', Buffer.from('old-version'), 'image/png');
		const held = await store.get('k');
		await store.put('k', Buffer.from('new'), 'image/webp');
		expect(await text(held)).toBe('old-version');
		const fresh = await store.get('k');
		expect(fresh).toMatchObject({ size: 3, contentType: 'image/webp' });
		expect(await text(fresh)).toBe('new');
	});

	it('stores nothing when the size cap is exceeded, and stops reading the source', async () => {
		let pulled = 0;
		const source = new ReadableStream<Uint8Array>({
			pull(c) {
				pulled++;
				c.enqueue(new Uint8Array(1024));
				if (pulled > 1000) c.close();
			}
		});
		await expect(store.put('big', source, 'video/webm', { maxBytes: 4096 })).rejects.toBeInstanceOf(MediaTooLargeError);
		expect(pulled).toBeLessThan(10);
		expect(await store.exists('big')).toBe(false);
		expect(await filesOnDisk()).toEqual([]);
		await store.put('fits', new Uint8Array(4096), 'video/webm', { maxBytes: 4096 });
		expect(await store.exists('fits')).toBe(true);
	});

	it('keeps the previous object when a replacing upload fails', async () => {
		await store.put('keep', Buffer.from('v1'), 'image/png');
		async function* failing() {
			yield Buffer.from('partial');
			throw new Error('client went away');
		}
		await expect(store.put('keep', failing(), 'image/png')).rejects.toThrow('client went away');
		expect(await text(await store.get('keep'))).toBe('v1');
		expect((await filesOnDisk()).filter((f) => f.endsWith('.tmp'))).toEqual([]);
	});

	it('serves byte ranges and refuses unsatisfiable ones', async () => {
		await store.put('v', Buffer.from('0123456789'), 'video/mp4');
		const part = await store.get('v', { range: { start: 2, end: 5 } });
		expect(part).toMatchObject({ size: 10, range: { start: 2, end: 5 } });
		expect(await text(part)).toBe('2345');
		const tail = await store.get('v', { range: { start: 7, end: 100 } });
		expect(tail?.range).toEqual({ start: 7, end: 9 });
		expect(await text(tail)).toBe('789');
		await expect(store.get('v', { range: { start: 10 } })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
		await expect(store.get('v', { range: { start: 5, end: 4 } })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
	});

	it('deletes by string prefix, like S3, and only what matches', async () => {
		for (const key of ['sessions/s1/a', 'sessions/s1/b', 'sessions/s1/video/v', 'sessions/s10/a', 'sessions/s2/a', 'other']) {
			await store.put(key, Buffer.from(key), 'image/jpeg');
		}
		expect(await store.deletePrefix('sessions/s1/')).toBe(3);
		expect(await store.exists('sessions/s1/a')).toBe(false);
		expect(await store.exists('sessions/s10/a')).toBe(true);
		expect(await store.deletePrefix('sessions/s')).toBe(2);
		expect(await store.exists('other')).toBe(true);
		expect(await filesOnDisk()).toEqual(['.other.meta', 'other']);
		expect(await store.deletePrefix('nothing/here/')).toBe(0);
	});

	it('falls back to octet-stream when the sidecar is lost', async () => {
		await store.put('x', Buffer.from('1'), 'image/png');
		await rm(join(store.root, '.x.meta'));
		expect((await store.get('x'))?.contentType).toBe('application/octet-stream');
		await writeFile(join(store.root, '.x.meta'), '{broken');
		expect((await store.get('x'))?.contentType).toBe('application/octet-stream');
	});
});

describe('media keys', () => {
	it.each([
		'../escape',
		'a/../../b',
		'..',
		'.hidden',
		'a/.meta',
		'/abs',
		'a//b',
		'a/',
		'',
		'a\\b',
		'a\0b',
		'caf\u00e9',
		'a b',
		'x'.repeat(513),
		`${'s'.repeat(129)}`
	])('refuses %j everywhere', async (key) => {
		expect(isValidMediaKey(key)).toBe(false);
		await expect(store.put(key, new Uint8Array([1]), 'image/png')).rejects.toBeInstanceOf(InvalidMediaKeyError);
		await expect(store.get(key)).rejects.toBeInstanceOf(InvalidMediaKeyError);
		await expect(store.exists(key)).rejects.toBeInstanceOf(InvalidMediaKeyError);
		await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidMediaKeyError);
		expect(await filesOnDisk()).toEqual([]);
	});

	it('refuses an empty prefix so nothing can wipe the store', async () => {
		await store.put('k', new Uint8Array([1]), 'image/png');
		await expect(store.deletePrefix('')).rejects.toBeInstanceOf(InvalidMediaKeyError);
		await expect(store.deletePrefix('/')).rejects.toBeInstanceOf(InvalidMediaKeyError);
		await expect(store.deletePrefix('../')).rejects.toBeInstanceOf(InvalidMediaKeyError);
		expect(await store.exists('k')).toBe(true);
	});

	it.each(['sessions/ses_01J/med_01J.jpg', 'a', 'A-Z_0.9', 'x'.repeat(128)])('accepts %j', (key) => {
		expect(isValidMediaKey(key)).toBe(true);
	});
});
