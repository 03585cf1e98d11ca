import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import {
	assertValidMediaKey,
	assertValidMediaPrefix,
	iterateBody,
	MediaTooLargeError,
	RangeNotSatisfiableError,
	type ByteRange,
	type MediaBody,
	type MediaObject,
	type MediaStore,
	type PutOptions,
	type PutResult
} from './media-store.ts';

interface Meta {
	contentType: string;
}

/**
 * MediaStore over a local directory (by default `DATA_DIR/media`). Object `a/b/c` is the file
 * `<root>/a/b/c`; its content type sits in a hidden sidecar `<root>/a/b/.c.meta`. Valid keys never
 * start a segment with `.`, so sidecars and temp files (`.c.<uuid>.tmp`) cannot collide with objects.
 *
 * Writes go to a temp file in the same directory, are fsynced, then renamed over the target: rename is
 * atomic on POSIX, so readers see the old object or the new one. The sidecar is renamed into place
 * first; an object whose content type changes on overwrite may briefly be served with the new type,
 * which does not matter for write-once media ids.
 */
export class LocalMediaStore implements MediaStore {
	readonly root: string;

	constructor(root: string) {
		this.root = resolve(root);
	}

	private pathOf(key: string): string {
		assertValidMediaKey(key);
		const path = resolve(this.root, ...key.split('/'));
		// Defence in depth: the key rules already forbid anything that could leave the root.
		if (!path.startsWith(this.root + sep)) throw new Error('media key escapes the store root');
		return path;
	}

	private static metaPath(path: string): string {
		return join(dirname(path), `.${basename(path)}.meta`);
	}

	async put(key: string, body: MediaBody, contentType: string, options: PutOptions = {}): Promise<PutResult> {
		const path = this.pathOf(key);
		const dir = dirname(path);
		const tmp = join(dir, `.${basename(path)}.${randomUUID()}.tmp`);
		const metaTmp = `${tmp}.meta`;
		let size = 0;
		let handle: FileHandle | undefined;
		try {
			handle = await this.createInDir(dir, tmp);
			for await (const chunk of iterateBody(body)) {
				size += chunk.length;
				if (options.maxBytes !== undefined && size > options.maxBytes) throw new MediaTooLargeError(options.maxBytes);
				await handle.write(chunk);
			}
			await handle.sync();
			await handle.close();
			handle = undefined;
			const meta: Meta = { contentType };
			const metaHandle = await open(metaTmp, 'wx', 0o600);
			try {
				await metaHandle.writeFile(JSON.stringify(meta));
				await metaHandle.sync();
			} finally {
				await metaHandle.close();
			}
			await rename(metaTmp, LocalMediaStore.metaPath(path));
			await rename(tmp, path);
			return { key, size };
		} catch (err) {
			await handle?.close().catch(() => {});
			await rm(tmp, { force: true });
			await rm(metaTmp, { force: true });
			throw err;
		}
	}

	/** mkdir + create, retried because a concurrent delete may prune the fresh, still empty directory. */
	private async createInDir(dir: string, file: string): Promise<FileHandle> {
		for (let attempt = 1; ; attempt++) {
			await mkdir(dir, { recursive: true });
			try {
				return await open(file, 'wx', 0o600);
			} catch (err) {
				if (!isNotFound(err) || attempt >= 3) throw err;
			}
		}
	}

	async get(key: string, options: { range?: ByteRange } = {}): Promise<MediaObject | null> {
		const path = this.pathOf(key);
		let handle: FileHandle;
		try {
			// Opening first pins this version of the file even if it is replaced or deleted meanwhile.
			handle = await open(path, 'r');
		} catch (err) {
			if (isNotFound(err)) return null;
			throw err;
		}
		try {
			const st = await handle.stat();
			if (!st.isFile()) {
				await handle.close();
				return null;
			}
			const contentType = await this.readContentType(path);
			const size = st.size;
			let range: { start: number; end: number } | undefined;
			if (options.range) {
				const { start } = options.range;
				const end = Math.min(options.range.end ?? size - 1, size - 1);
				if (!Number.isInteger(start) || start < 0 || start >= size || end < start) {
					throw new RangeNotSatisfiableError(size);
				}
				range = { start, end };
			}
			const stream = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
			return { body: Readable.toWeb(stream) as ReadableStream<Uint8Array>, size, contentType, range };
		} catch (err) {
			await handle.close().catch(() => {});
			throw err;
		}
	}

	private async readContentType(path: string): Promise<string> {
		try {
			const meta = JSON.parse(await readFile(LocalMediaStore.metaPath(path), 'utf8')) as Partial<Meta>;
			if (typeof meta.contentType === 'string') return meta.contentType;
		} catch {
			// Missing or unreadable sidecar: serve as opaque bytes rather than fail.
		}
		return 'application/octet-stream';
	}

	async delete(key: string): Promise<void> {
		const path = this.pathOf(key);
		await unlinkIfPresent(path);
		await unlinkIfPresent(LocalMediaStore.metaPath(path));
		await this.pruneEmptyDirs(dirname(path));
	}

	async deletePrefix(prefix: string): Promise<number> {
		assertValidMediaPrefix(prefix);
		const slash = prefix.lastIndexOf('/');
		const dirKey = slash >= 0 ? prefix.slice(0, slash) : '';
		const startDir = dirKey ? resolve(this.root, ...dirKey.split('/')) : this.root;
		let deleted = 0;
		const walk = async (dir: string, keyPrefix: string): Promise<void> => {
			let entries;
			try {
				entries = await readdir(dir, { withFileTypes: true });
			} catch (err) {
				if (isNotFound(err)) return;
				throw err;
			}
			for (const entry of entries) {
				if (entry.name.startsWith('.')) continue;
				const key = keyPrefix ? `${keyPrefix}/${entry.name}` : entry.name;
				const full = join(dir, entry.name);
				if (entry.isDirectory()) {
					// Descend only where keys below can still match the prefix.
					if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) await walk(full, key);
					if (key.startsWith(prefix)) await rm(full, { recursive: true, force: true });
				} else if (entry.isFile() && key.startsWith(prefix)) {
					await unlinkIfPresent(full);
					await unlinkIfPresent(LocalMediaStore.metaPath(full));
					deleted++;
				}
			}
		};
		await walk(startDir, dirKey);
		await this.pruneEmptyDirs(startDir);
		return deleted;
	}

	async exists(key: string): Promise<boolean> {
		try {
			return (await stat(this.pathOf(key))).isFile();
		} catch (err) {
			if (isNotFound(err)) return false;
			throw err;
		}
	}

	/** Removes now-empty directories up to (not including) the root, so retention leaves no litter. */
	private async pruneEmptyDirs(dir: string): Promise<void> {
		let current = dir;
		while (current.startsWith(this.root + sep)) {
			try {
				await rmdir(current);
			} catch {
				return; // not empty (or already gone, or in use by a concurrent put): stop here
			}
			current = dirname(current);
		}
	}
}

function isNotFound(err: unknown): boolean {
	const code = (err as NodeJS.ErrnoException)?.code;
	return code === 'ENOENT' || code === 'ENOTDIR';
}

async function unlinkIfPresent(path: string): Promise<void> {
	try {
		await unlink(path);
	} catch (err) {
		if (!isNotFound(err)) throw err;
	}
}
