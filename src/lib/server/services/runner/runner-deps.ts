import type { DialogEngine } from '../dialog/dialog.types.ts';
import type { ServerKeys } from '../../crypto.ts';
import type { UnitOfWork } from '../../repositories/index.ts';
import type { SessionService } from '../session.service.ts';
import type { OtpDelivery } from '../otp/otp-delivery.ts';
import type { FaceEngines } from '../faces/face-evidence.ts';
import type { DocumentMediaSink } from '../../documents/document-media.ts';
import type { DocumentReadFn } from '../../documents/document-evidence.ts';

/** The runner's dialog engine: the one interface in services/dialog (embedded or LLM). */
export type DialogPort = DialogEngine;

export interface RunnerDeps {
	uow: UnitOfWork;
	keys: ServerKeys;
	now: () => number;
	sessions: SessionService;
	dialog: DialogPort;
	otp: OtpDelivery;
	/** Face nodes: the models, where captures and screenshots go, and the enrolled faces' 1:N index. */
	faces: FaceEngines;
	/** document_scan: the reader, and where the document photos and the portrait go. */
	documents: { sink: DocumentMediaSink; read: DocumentReadFn };
}
