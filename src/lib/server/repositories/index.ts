import type { Db, DbOrTx, Store } from '../db/store.ts';
import { AccountRepository } from './account.repository.ts';
import { CatalogueRepository } from './catalogue.repository.ts';
import { FaceTemplateRepository } from './face-template.repository.ts';
import { DeliveryRepository } from './delivery.repository.ts';
import { IdempotencyRepository } from './idempotency.repository.ts';
import { MediaRepository } from './media.repository.ts';
import { OutboxRepository } from './outbox.repository.ts';
import { PostSessionRepository } from './post-session.repository.ts';
import { RetentionRepository } from './retention.repository.ts';
import { RunnerRepository } from './runner.repository.ts';
import { ServerSecretRepository } from './server-secret.repository.ts';
import { SessionRepository } from './session.repository.ts';

/** Every repository bound to one handle: the database, or one transaction. */
export interface Repos {
	accounts: AccountRepository;
	sessions: SessionRepository;
	outbox: OutboxRepository;
	idempotency: IdempotencyRepository;
	catalogue: CatalogueRepository;
	runner: RunnerRepository;
	faceTemplates: FaceTemplateRepository;
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
	runner: new RunnerRepository(db),
	faceTemplates: new FaceTemplateRepository(db),
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
