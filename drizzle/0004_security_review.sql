CREATE TABLE "number_pool_exhaustions" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"visits" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "number_holds" ADD COLUMN "client_key" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_pending_session" text;--> statement-breakpoint
CREATE INDEX "contact_requests_gpc_email_idx" ON "contact_requests" USING btree (lower("email")) WHERE "contact_requests"."global_privacy_control";--> statement-breakpoint
CREATE INDEX "privacy_requests_email_idx" ON "privacy_requests" USING btree (lower("email"));