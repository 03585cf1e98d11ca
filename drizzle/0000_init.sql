CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" bigint NOT NULL,
	"frame_ancestors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"template_key" text
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"env" text NOT NULL,
	"hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_at" bigint NOT NULL,
	"revoked_at" bigint,
	"last_used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "avatars" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"gender" text NOT NULL,
	"image" text NOT NULL,
	"voice" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	"removed_at" bigint
);
--> statement-breakpoint
CREATE TABLE "client_secrets" (
	"session_id" text PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"sealed" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expire_at" bigint NOT NULL,
	"opened_at" bigint,
	"open_nonce_hash" text
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" text NOT NULL,
	"env" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"session_id" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_env_key_pk" PRIMARY KEY("account_id","env","key")
);
--> statement-breakpoint
CREATE TABLE "langs" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"account_id" text,
	"env" text,
	"type" text NOT NULL,
	"session_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dispatched_at" bigint
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"env" text NOT NULL,
	"status" text NOT NULL,
	"status_rank" smallint NOT NULL,
	"created_at" bigint NOT NULL,
	"started_at" bigint,
	"finished_at" bigint,
	"finished_sort" bigint DEFAULT 0 NOT NULL,
	"updated_at" bigint NOT NULL,
	"last_activity_at" bigint,
	"client_reference_id" text NOT NULL,
	"flow_id" text NOT NULL,
	"settings" jsonb NOT NULL,
	"flow" jsonb NOT NULL,
	"search_text" text NOT NULL,
	"lang" text,
	"current_node_id" text,
	"step" integer DEFAULT 0 NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"location" jsonb,
	"device" jsonb,
	"consent" jsonb,
	"version" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"url" text NOT NULL,
	"secret" text NOT NULL,
	"env" text,
	"created_at" bigint NOT NULL,
	"disabled_at" bigint
);
--> statement-breakpoint
CREATE TABLE "handoffs" (
	"hash" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint,
	"nonce_hash" text
);
--> statement-breakpoint
CREATE TABLE "node_reports" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"node_id" text NOT NULL,
	"type" text NOT NULL,
	"outcome" text NOT NULL,
	"target_node_id" text,
	"created_at" bigint NOT NULL,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "node_submissions" (
	"session_id" text NOT NULL,
	"request_id" text NOT NULL,
	"step" integer NOT NULL,
	"node_id" text NOT NULL,
	"request_hash" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "node_submissions_session_id_request_id_pk" PRIMARY KEY("session_id","request_id")
);
--> statement-breakpoint
CREATE TABLE "otp_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"node_id" text NOT NULL,
	"channel" text NOT NULL,
	"destination" text NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"sent_count" integer DEFAULT 1 NOT NULL,
	"last_sent_at" bigint NOT NULL,
	"verified_at" bigint,
	"locked_at" bigint,
	"delivery_error" text
);
--> statement-breakpoint
CREATE TABLE "page_tokens" (
	"hash" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"revoked_at" bigint
);
--> statement-breakpoint
CREATE TABLE "phrases" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"session_id" text NOT NULL,
	"node_id" text,
	"created_at" bigint NOT NULL,
	"text" text NOT NULL,
	"is_avatar" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"account_id" text NOT NULL,
	"env" text NOT NULL,
	"channel" text NOT NULL,
	"to" text NOT NULL,
	"subject" text,
	"body" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "face_templates" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"account_id" text NOT NULL,
	"env" text NOT NULL,
	"session_id" text NOT NULL,
	"client_reference_id" text NOT NULL,
	"template" "bytea" NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"kind" text NOT NULL,
	"node_id" text,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"store_key" text NOT NULL,
	"created_at" bigint NOT NULL,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "session_analyses" (
	"session_id" text NOT NULL,
	"kind" text NOT NULL,
	"result" jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "session_analyses_session_id_kind_pk" PRIMARY KEY("session_id","kind")
);
--> statement-breakpoint
CREATE TABLE "session_finalizations" (
	"session_id" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"due_at" bigint NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"done_at" bigint
);
--> statement-breakpoint
CREATE TABLE "video_chunks" (
	"session_id" text NOT NULL,
	"seq" integer NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"store_key" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "video_chunks_session_id_seq_pk" PRIMARY KEY("session_id","seq")
);
--> statement-breakpoint
CREATE TABLE "video_recordings" (
	"session_id" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"final_seq" integer,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"missing" jsonb,
	"media_id" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" text NOT NULL,
	"event_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"session_id" text NOT NULL,
	"attempt" smallint NOT NULL,
	"sent_at" bigint NOT NULL,
	"latency_ms" integer NOT NULL,
	"outcome" text NOT NULL,
	"status" integer,
	"error" text,
	"response_snippet" text DEFAULT '' NOT NULL,
	"next_attempt_at" bigint
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"event_seq" bigint NOT NULL,
	"event_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"account_id" text,
	"session_id" text NOT NULL,
	"state" text NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"claim_token" text,
	"last_status" integer,
	"last_error" text,
	"fail_reason" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"delivered_at" bigint
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_secrets" ADD CONSTRAINT "client_secrets_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_events" ADD CONSTRAINT "outbox_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handoffs" ADD CONSTRAINT "handoffs_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_reports" ADD CONSTRAINT "node_reports_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_submissions" ADD CONSTRAINT "node_submissions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_codes" ADD CONSTRAINT "otp_codes_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_tokens" ADD CONSTRAINT "page_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phrases" ADD CONSTRAINT "phrases_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_messages" ADD CONSTRAINT "sandbox_messages_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_templates" ADD CONSTRAINT "face_templates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_templates" ADD CONSTRAINT "face_templates_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_analyses" ADD CONSTRAINT "session_analyses_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_finalizations" ADD CONSTRAINT "session_finalizations_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_chunks" ADD CONSTRAINT "video_chunks_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_recordings" ADD CONSTRAINT "video_recordings_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_seq_outbox_events_seq_fk" FOREIGN KEY ("event_seq") REFERENCES "public"."outbox_events"("seq") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_idx" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "api_keys_account_idx" ON "api_keys" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "client_secrets_hash_idx" ON "client_secrets" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "client_secrets_expire_idx" ON "client_secrets" USING btree ("expire_at");--> statement-breakpoint
CREATE INDEX "idempotency_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_events_id_idx" ON "outbox_events" USING btree ("id");--> statement-breakpoint
CREATE INDEX "outbox_events_session_idx" ON "outbox_events" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "outbox_events_undispatched_idx" ON "outbox_events" USING btree ("seq") WHERE "outbox_events"."dispatched_at" is null;--> statement-breakpoint
CREATE INDEX "sessions_created_idx" ON "sessions" USING btree ("account_id","env","created_at","id");--> statement-breakpoint
CREATE INDEX "sessions_status_idx" ON "sessions" USING btree ("account_id","env","status_rank","id");--> statement-breakpoint
CREATE INDEX "sessions_finished_idx" ON "sessions" USING btree ("account_id","env","finished_sort","id");--> statement-breakpoint
CREATE INDEX "sessions_status_created_idx" ON "sessions" USING btree ("account_id","env","status","created_at","id");--> statement-breakpoint
CREATE INDEX "sessions_client_ref_idx" ON "sessions" USING btree ("account_id","env","client_reference_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sessions_flow_idx" ON "sessions" USING btree ("account_id","env","flow_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sessions_retention_idx" ON "sessions" USING btree ("env","created_at");--> statement-breakpoint
CREATE INDEX "sessions_open_idx" ON "sessions" USING btree ("status","last_activity_at") WHERE "sessions"."status" in ('created', 'inProgress');--> statement-breakpoint
CREATE INDEX "webhook_endpoints_account_idx" ON "webhook_endpoints" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "handoffs_session_idx" ON "handoffs" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "node_reports_session_idx" ON "node_reports" USING btree ("session_id","seq");--> statement-breakpoint
CREATE INDEX "otp_codes_session_idx" ON "otp_codes" USING btree ("session_id","node_id");--> statement-breakpoint
CREATE INDEX "page_tokens_session_idx" ON "page_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "phrases_session_idx" ON "phrases" USING btree ("session_id","seq");--> statement-breakpoint
CREATE INDEX "sandbox_messages_session_idx" ON "sandbox_messages" USING btree ("session_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "face_templates_id_idx" ON "face_templates" USING btree ("id");--> statement-breakpoint
CREATE INDEX "face_templates_account_idx" ON "face_templates" USING btree ("account_id","env","seq");--> statement-breakpoint
CREATE INDEX "face_templates_session_idx" ON "face_templates" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "media_session_idx" ON "media" USING btree ("session_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "session_finalizations_due_idx" ON "session_finalizations" USING btree ("due_at") WHERE "session_finalizations"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_attempts_event_idx" ON "webhook_attempts" USING btree ("event_id","seq");--> statement-breakpoint
CREATE INDEX "webhook_attempts_session_idx" ON "webhook_attempts" USING btree ("session_id","seq");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_endpoint_idx" ON "webhook_deliveries" USING btree ("event_id","endpoint_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_session_idx" ON "webhook_deliveries" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_seq_idx" ON "webhook_deliveries" USING btree ("event_seq");