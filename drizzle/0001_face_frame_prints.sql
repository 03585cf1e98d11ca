CREATE TABLE "face_frame_prints" (
	"account_id" text NOT NULL,
	"digest" "bytea" NOT NULL,
	"session_id" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "face_frame_prints" ADD CONSTRAINT "face_frame_prints_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_frame_prints" ADD CONSTRAINT "face_frame_prints_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "face_frame_prints_digest_idx" ON "face_frame_prints" USING btree ("account_id","digest","session_id");--> statement-breakpoint
CREATE INDEX "face_frame_prints_session_idx" ON "face_frame_prints" USING btree ("session_id");