import type { DialogEngine } from '../dialog/dialog.types.ts';
import type { ServerKeys } from '../../crypto.ts';
import type { UnitOfWork } from '../../repositories/index.ts';
import type { SessionService } from '../session.service.ts';
import type { OtpDelivery } from '../otp/otp-delivery.ts';
import type { FaceEvidenceSink } from '../faces/face-evidence-sink.ts';
import type { FaceTemplateCache } from '../faces/template-cache.ts';
import type { DocumentMediaSink } from '../documents/document-media.ts';

/** The runner's dialog engine: the one interface in services/dialog (embedded or LLM). */
export type DialogPort = DialogEngine;

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
