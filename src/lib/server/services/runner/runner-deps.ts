import type { SupportedLang } from '#lib/domain/langs.ts';
import type { Phrase } from '#lib/domain/session/session.schema.ts';
import type { ServerKeys } from '../../crypto.ts';
import type { UnitOfWork } from '../../repositories/index.ts';
import type { SessionService } from '../session.service.ts';
import type { OtpDelivery } from '../otp/otp-delivery.ts';
import type { FaceEvidenceSink } from '../faces/face-evidence-sink.ts';
import type { FaceTemplateCache } from '../faces/template-cache.ts';
import type { DocumentMediaSink } from '../documents/document-media.ts';

/** The dialog engine as the runner sees it (implemented in services/dialog). */
export interface DialogPort {
	speak(input: { prompt: string; lang: SupportedLang; state: DialogStateView }): Promise<{ text: string }>;
	judge(input: {
		outcomes: { id: string; condition: string }[];
		lang: SupportedLang;
		state: DialogStateView;
		reply: string;
	}): Promise<{ outcomeId: string | null; entities: Record<string, string> }>;
	/** What the avatar says when a reply matched no outcome. */
	repeatPhrase(lang: SupportedLang): string;
}

export interface DialogStateView {
	transcript: Phrase[];
	data: Record<string, unknown>;
	lastValidation?: { passed: boolean; actual?: string; reason?: string };
}

export interface RunnerDeps {
	uow: UnitOfWork;
	keys: ServerKeys;
	now: () => number;
	sessions: SessionService;
	dialog: DialogPort;
	otp: OtpDelivery;
	/** Face nodes: where captures and screenshots go, and the enrolled faces' 1:N index. */
	faces: { sink: FaceEvidenceSink; templates: FaceTemplateCache };
	/** document_scan: where the document photos and the portrait go. */
	documents: { sink: DocumentMediaSink };
}
