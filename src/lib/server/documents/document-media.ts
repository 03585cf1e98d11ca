// Where a document_scan's images go: the rectified document photo(s) become `document_photo` media
// and fire `media.document_photo` in the node's transaction; the portrait found on the document is
// stored as a `document_photo` too (no event: it is derived from the document photo), so it is
// discarded with the document at session end unless the session has `retainSessionMedia`.
import type { Repos } from '../repositories/index.ts';
import type { MediaService } from '../services/media.service.ts';

export interface DocumentMediaInput {
	sessionId: string;
	nodeId: string;
	/** JPEG (or PNG/WebP) bytes the server produced or checked. */
	bytes: Uint8Array;
}

export interface DocumentMediaSink {
	/** Stores a document image and records `media.document_photo` in the caller's transaction. */
	saveDocumentPhoto(repos: Repos, input: DocumentMediaInput): Promise<{ id: string }>;
	/** Stores the document's portrait (the session's face reference), without an event. */
	savePortrait(repos: Repos, input: DocumentMediaInput): Promise<{ id: string }>;
}

export class MediaDocumentSink implements DocumentMediaSink {
	constructor(private readonly media: MediaService) {}

	saveDocumentPhoto(repos: Repos, input: DocumentMediaInput): Promise<{ id: string }> {
		return this.#save(repos, input, true);
	}

	savePortrait(repos: Repos, input: DocumentMediaInput): Promise<{ id: string }> {
		return this.#save(repos, input, false);
	}

	async #save(repos: Repos, input: DocumentMediaInput, fireEvent: boolean): Promise<{ id: string }> {
		const stored = await this.media.put({ sessionId: input.sessionId, kind: 'document_photo', bytes: input.bytes });
		try {
			const info = await this.media.record(repos, stored, { nodeId: input.nodeId, fireEvent });
			return { id: info.id };
		} catch (err) {
			await this.media.forget(stored);
			throw err;
		}
	}
}
