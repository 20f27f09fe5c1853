CREATE TABLE "confirmation_email_limits" (
	"recipient" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"sent" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"contact_request_id" uuid NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_by" text NOT NULL,
	"status_from" text,
	"status_to" text,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "lead_submissions" (
	"key" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"request_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"operator_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operators_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"failures" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_event_counts" (
	"day" date NOT NULL,
	"path" text NOT NULL,
	"kind" text NOT NULL,
	"placement" text DEFAULT '' NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"medium" text DEFAULT '' NOT NULL,
	"campaign" text DEFAULT '' NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "site_event_counts_pk" PRIMARY KEY("day","path","kind","placement","source","medium","campaign")
);
--> statement-breakpoint
DROP INDEX "email_outbox_pending_idx";--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "status" text DEFAULT 'New' NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "landing_path" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "referrer_host" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "utm_source" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "utm_medium" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "utm_campaign" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "utm_term" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "utm_content" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "gclid" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "gbraid" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "wbraid" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "msclkid" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "fbclid" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD COLUMN "completed_by" text;--> statement-breakpoint
ALTER TABLE "lead_changes" ADD CONSTRAINT "lead_changes_contact_request_id_contact_requests_id_fk" FOREIGN KEY ("contact_request_id") REFERENCES "public"."contact_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD CONSTRAINT "operator_sessions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_changes_request_idx" ON "lead_changes" USING btree ("contact_request_id","changed_at");--> statement-breakpoint
CREATE INDEX "lead_submissions_expires_at_idx" ON "lead_submissions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "operator_sessions_operator_idx" ON "operator_sessions" USING btree ("operator_id");--> statement-breakpoint
CREATE INDEX "contact_requests_status_idx" ON "contact_requests" USING btree ("status");--> statement-breakpoint
CREATE INDEX "email_outbox_pending_idx" ON "email_outbox" USING btree ("next_attempt_at") WHERE "email_outbox"."sent_at" IS NULL AND "email_outbox"."failed_at" IS NULL;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD CONSTRAINT "contact_requests_status_known" CHECK ("contact_requests"."status" IN ('New', 'Contacted', 'Booked', 'Closed', 'Spam'));