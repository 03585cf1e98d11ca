import { bigint, bigserial, customType, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, sessions } from './schema.core.ts';

/* Enrolled face templates for `recognition` (issue 5). */

const ms = (name: string) => bigint(name, { mode: 'number' });

/** PostgreSQL bytea as Uint8Array (node-postgres gives a Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
	dataType: () => 'bytea',
	toDriver: (value) => (typeof Buffer !== 'undefined' ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value),
	fromDriver: (value) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
});

/**
 * One enrolled face per row: the embedding under the account's keyed rotation (template-protection.ts),
 * never raw. Deleted with its session (the retention purge), so a purged session cannot be recognised.
 * `seq` lets an instance that holds an in-memory index fetch only the rows added since it loaded.
 */
export const faceTemplates = pgTable(
	'face_templates',
	{
		seq: bigserial('seq', { mode: 'number' }).primaryKey(),
		id: text('id').notNull(),
		accountId: text('account_id')
			.notNull()
			.references(() => accounts.id, { onDelete: 'cascade' }),
		/** Sandbox and production faces never meet: each environment is searched on its own. */
		env: text('env').$type<'test' | 'live'>().notNull(),
		sessionId: text('session_id')
			.notNull()
			.references(() => sessions.id, { onDelete: 'cascade' }),
		clientReferenceId: text('client_reference_id').notNull(),
		/** encodeTemplate(protectTemplate(embedding, accountKey)). */
		template: bytea('template').notNull(),
		createdAt: ms('created_at').notNull()
	},
	(t) => [uniqueIndex('face_templates_id_idx').on(t.id), index('face_templates_account_idx').on(t.accountId, t.env, t.seq), index('face_templates_session_idx').on(t.sessionId)]
);

/**
 * A digest of every frame a face node was sent, per account, so that frames posted again into another
 * session (a replay of a genuine earlier session's upload) are recognised as such. The digest is of the
 * decoded pixels (SHA-256, first 16 bytes): it catches a replay of the same pictures, whatever their
 * metadata or trailing bytes, not re-encoded ones (the light challenge's sequence is what stops
 * those, by chance only 0.6 % a try). Deleted with its session.
 */
export const faceFramePrints = pgTable(
	'face_frame_prints',
	{
		accountId: text('account_id')
			.notNull()
			.references(() => accounts.id, { onDelete: 'cascade' }),
		digest: bytea('digest').notNull(),
		sessionId: text('session_id')
			.notNull()
			.references(() => sessions.id, { onDelete: 'cascade' }),
		createdAt: ms('created_at').notNull()
	},
	(t) => [uniqueIndex('face_frame_prints_digest_idx').on(t.accountId, t.digest, t.sessionId), index('face_frame_prints_session_idx').on(t.sessionId)]
);
