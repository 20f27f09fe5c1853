CREATE TABLE "confirmation_email_limits" (
	"recipient" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"sent" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_submissions" (
	"key" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"request_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "email_outbox_pending_idx";--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "lead_submissions_expires_at_idx" ON "lead_submissions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "email_outbox_pending_idx" ON "email_outbox" USING btree ("next_attempt_at") WHERE "email_outbox"."sent_at" IS NULL AND "email_outbox"."failed_at" IS NULL;