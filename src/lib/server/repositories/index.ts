import type { Db, DbOrTx, Store } from '../db/store.ts';
import { AccountRepository } from './account.repository.ts';
import { CatalogueRepository } from './catalogue.repository.ts';
import { FaceTemplateRepository } from './face-template.repository.ts';
import { FaceFramePrintRepository } from './face-frame-print.repository.ts';
import { DeliveryRepository } from './delivery.repository.ts';
import { IdempotencyRepository } from './idempotency.repository.ts';
import { MediaRepository } from './media.repository.ts';
import { NodeReportRepository } from './node-report.repository.ts';
import { OutboxRepository } from './outbox.repository.ts';
import { PageAccessRepository } from './page-access.repository.ts';
import { PasscodeRepository } from './passcode.repository.ts';
import { PostSessionRepository } from './post-session.repository.ts';
import { RetentionRepository } from './retention.repository.ts';
import { SandboxMessageRepository } from './sandbox-message.repository.ts';
import { ServerSecretRepository } from './server-secret.repository.ts';
import { SessionRepository } from './session.repository.ts';
import { SubmissionRepository } from './submission.repository.ts';
import { TranscriptRepository } from './transcript.repository.ts';

/** Every repository bound to one handle: the database, or one transaction. */
export interface Repos {
	accounts: AccountRepository;
	sessions: SessionRepository;
	outbox: OutboxRepository;
	idempotency: IdempotencyRepository;
	catalogue: CatalogueRepository;
	/** Page tokens and handoffs: how the hosted page gets into a session after its client secret. */
	pageAccess: PageAccessRepository;
	transcript: TranscriptRepository;
	nodeReports: NodeReportRepository;
	/** Answers to node results by request id, for retried submits. */
	submissions: SubmissionRepository;
	/** One-time passcodes of two-factor nodes. */
	passcodes: PasscodeRepository;
	sandboxMessages: SandboxMessageRepository;
	faceTemplates: FaceTemplateRepository;
	faceFramePrints: FaceFramePrintRepository;
	delivery: DeliveryRepository;
	media: MediaRepository;
	postSession: PostSessionRepository;
	retention: RetentionRepository;
	serverSecrets: ServerSecretRepository;
}

export const reposFor = (db: DbOrTx): Repos => ({
	accounts: new AccountRepository(db),
	sessions: new SessionRepository(db),
	outbox: new OutboxRepository(db),
	idempotency: new IdempotencyRepository(db),
	catalogue: new CatalogueRepository(db),
	pageAccess: new PageAccessRepository(db),
	transcript: new TranscriptRepository(db),
	nodeReports: new NodeReportRepository(db),
	submissions: new SubmissionRepository(db),
	passcodes: new PasscodeRepository(db),
	sandboxMessages: new SandboxMessageRepository(db),
	faceTemplates: new FaceTemplateRepository(db),
	faceFramePrints: new FaceFramePrintRepository(db),
	delivery: new DeliveryRepository(db),
	media: new MediaRepository(db),
	postSession: new PostSessionRepository(db),
	retention: new RetentionRepository(db),
	serverSecrets: new ServerSecretRepository(db)
});

/**
 * How services reach storage: `repos` outside a transaction, `transaction(fn)` for a change that
 * must be all-or-nothing (a state change and its outbox event). Services never see the client.
 */
export interface UnitOfWork {
	readonly repos: Repos;
	transaction<T>(fn: (repos: Repos) => Promise<T>): Promise<T>;
}

export function unitOfWork(store: Store): UnitOfWork {
	const db: Db = store.db;
	return {
		repos: reposFor(db),
		transaction: (fn) => db.transaction((tx) => fn(reposFor(tx)))
	};
}
