/**
 * Browser side of the session video: uploads MediaRecorder chunks to `/api/client/video/chunks`
 * in order, one at a time, keeping every chunk until the server acknowledged it. A dropped
 * connection is retried with back-off; after it, the uploader asks the server what it has and
 * sends only what is missing, so nothing recorded is lost while the page stays open.
 * Framework-free; the page wires it to its MediaRecorder:
 *
 *     const uploader = new VideoChunkUploader({ token: () => pageToken });
 *     if (await uploader.start()) {
 *       recorder.ondataavailable = (e) => uploader.add(e.data, recorder.state === 'inactive');
 *       recorder.start(2000); // a chunk every 2 s keeps each upload small
 *     }
 */

export interface VideoChunkStatus {
	enabled: boolean;
	state: string;
	chunks: number;
	nextSeq: number;
	missing: number[];
	finalSeq: number | null;
	maxChunkBytes: number;
}

export type UploaderStop = 'video_not_enabled' | 'video_closed' | 'unauthorised';

export interface UploaderSnapshot {
	/** Chunks recorded and not yet acknowledged by the server. */
	pending: number;
	uploaded: number;
	/** Chunks the server refused for good (too large, conflicting); they are not retried. */
	dropped: number;
	/** The last upload failed and is being retried. */
	retrying: boolean;
	stopped: UploaderStop | null;
}

export interface VideoChunkUploaderOptions {
	/** The page token (Authorization: Bearer pt_…). */
	token: () => string;
	endpoint?: string;
	fetch?: typeof globalThis.fetch;
	/** Waits after failed attempts; the last one repeats. */
	backoffMs?: readonly number[];
	onChange?: (state: UploaderSnapshot) => void;
	/** Injectable timer (tests). */
	sleep?: (ms: number) => Promise<void>;
}

interface Queued {
	seq: number;
	blob: Blob;
	final: boolean;
}

export class VideoChunkUploader {
	private readonly queue: Queued[] = [];
	private nextSeq = 0;
	private pumping: Promise<void> | null = null;
	private state: UploaderSnapshot = { pending: 0, uploaded: 0, dropped: 0, retrying: false, stopped: null };
	private readonly endpoint: string;
	private readonly fetch: typeof globalThis.fetch;
	private readonly backoff: readonly number[];
	private readonly sleep: (ms: number) => Promise<void>;

	constructor(private readonly options: VideoChunkUploaderOptions) {
		this.endpoint = options.endpoint ?? '/api/client/video/chunks';
		this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
		this.backoff = options.backoffMs ?? [500, 1000, 2000, 5000, 10_000];
		this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
	}

	get snapshot(): UploaderSnapshot {
		return { ...this.state };
	}

	/**
	 * Asks the server whether this session records video and where to continue (after a reload the
	 * numbering goes on after what the server has). False: do not record.
	 */
	async start(): Promise<boolean> {
		const status = await this.status();
		if (!status?.enabled || (status.state !== 'none' && status.state !== 'recording')) {
			this.update({ stopped: status?.enabled ? 'video_closed' : 'video_not_enabled' });
			return false;
		}
		this.nextSeq = Math.max(this.nextSeq, status.nextSeq);
		return true;
	}

	/** Queues a recorded chunk (`last` for the recorder's final one) and starts uploading. */
	add(blob: Blob, last = false): void {
		if (this.state.stopped || (blob.size === 0 && !last)) return;
		if (blob.size === 0) {
			// An empty final chunk: mark the previous one final if it is still queued.
			const tail = this.queue[this.queue.length - 1];
			if (tail) tail.final = true;
			return;
		}
		this.queue.push({ seq: this.nextSeq++, blob, final: last });
		this.update({ pending: this.queue.length });
		this.pumping ??= this.pump().finally(() => (this.pumping = null));
	}

	/** Resolves once every queued chunk is acknowledged (or dropped), or after `timeoutMs`. */
	async flush(timeoutMs = 30_000): Promise<boolean> {
		const deadline = Date.now() + timeoutMs;
		while (this.queue.length && !this.state.stopped && Date.now() < deadline) {
			await Promise.race([this.pumping ?? Promise.resolve(), this.sleep(100)]);
		}
		return this.queue.length === 0;
	}

	private async pump(): Promise<void> {
		let failures = 0;
		while (this.queue.length && !this.state.stopped) {
			const item = this.queue[0];
			const result = await this.send(item);
			if (result === 'ok' || result === 'drop') {
				this.queue.shift();
				failures = 0;
				this.update({ pending: this.queue.length, retrying: false, ...(result === 'ok' ? { uploaded: this.state.uploaded + 1 } : { dropped: this.state.dropped + 1 }) });
				continue;
			}
			if (result !== 'retry') {
				this.queue.length = 0;
				this.update({ stopped: result, pending: 0, retrying: false });
				return;
			}
			this.update({ retrying: true });
			await this.sleep(this.backoff[Math.min(failures, this.backoff.length - 1)]);
			failures++;
			// The server may have stored it and only the answer was lost: that is progress too.
			if (await this.resync()) failures = 0;
		}
	}

	/** After a failure: forget queued chunks the server already has (the answer was lost, not the upload). */
	private async resync(): Promise<boolean> {
		const status = await this.status();
		if (!status) return false;
		const missing = new Set(status.missing);
		const has = (seq: number) => seq < status.nextSeq && !missing.has(seq);
		const before = this.queue.length;
		for (let i = this.queue.length - 1; i >= 0; i--) if (has(this.queue[i].seq) && !this.queue[i].final) this.queue.splice(i, 1);
		if (this.queue.length === before) return false;
		this.update({ pending: this.queue.length, uploaded: this.state.uploaded + before - this.queue.length });
		return true;
	}

	private async send(item: Queued): Promise<'ok' | 'drop' | 'retry' | UploaderStop> {
		let res: Response;
		try {
			res = await this.fetch(`${this.endpoint}?seq=${item.seq}${item.final ? '&final=1' : ''}`, {
				method: 'POST',
				headers: { authorization: `Bearer ${this.options.token()}`, 'content-type': item.blob.type || 'application/octet-stream' },
				body: item.blob
			});
		} catch {
			return 'retry';
		}
		if (res.ok) return 'ok';
		const code = await res
			.json()
			.then((b: { error?: { code?: string } }) => b.error?.code)
			.catch(() => undefined);
		if (res.status === 401) return 'unauthorised';
		if (code === 'video_not_enabled' || code === 'video_closed') return code;
		// Too large, not a video, or other bytes already stored under this number: sending it again cannot help.
		if (res.status === 409 || res.status === 413 || res.status === 415 || res.status === 400) return 'drop';
		return 'retry';
	}

	private async status(): Promise<VideoChunkStatus | null> {
		try {
			const res = await this.fetch(this.endpoint, { headers: { authorization: `Bearer ${this.options.token()}` } });
			return res.ok ? ((await res.json()) as VideoChunkStatus) : null;
		} catch {
			return null;
		}
	}

	private update(patch: Partial<UploaderSnapshot>): void {
		this.state = { ...this.state, ...patch };
		this.options.onChange?.(this.snapshot);
	}
}
