CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"operator_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"device_label" text NOT NULL,
	CONSTRAINT "push_subscriptions_endpoint_unique" UNIQUE("endpoint")
);
--> statement-breakpoint
CREATE TABLE "calls" (
	"id" uuid PRIMARY KEY NOT NULL,
	"call_sid" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"caller" text NOT NULL,
	"called" text NOT NULL,
	"line" text NOT NULL,
	"status" text DEFAULT 'ringing' NOT NULL,
	"duration_seconds" integer,
	"ended_at" timestamp with time zone,
	"recording_sid" text,
	"recording_seconds" integer,
	"landing_path" text,
	"referrer_host" text,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"utm_term" text,
	"utm_content" text,
	"gclid" text,
	"gbraid" text,
	"wbraid" text,
	"msclkid" text,
	"fbclid" text,
	CONSTRAINT "calls_call_sid_unique" UNIQUE("call_sid"),
	CONSTRAINT "calls_recording_sid_unique" UNIQUE("recording_sid"),
	CONSTRAINT "calls_line_known" CHECK ("calls"."line" IN ('website', 'pool', 'other')),
	CONSTRAINT "calls_status_known" CHECK ("calls"."status" IN ('ringing', 'answered', 'busy', 'no-answer', 'failed', 'canceled', 'voicemail'))
);
--> statement-breakpoint
CREATE TABLE "number_holds" (
	"number" text PRIMARY KEY NOT NULL,
	"hold_id" uuid NOT NULL,
	"held_until" timestamp with time zone NOT NULL,
	"landing_path" text,
	"referrer_host" text,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"utm_term" text,
	"utm_content" text,
	"gclid" text,
	"gbraid" text,
	"wbraid" text,
	"msclkid" text,
	"fbclid" text,
	CONSTRAINT "number_holds_hold_id_unique" UNIQUE("hold_id")
);
--> statement-breakpoint
CREATE TABLE "operator_recovery_codes" (
	"operator_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	CONSTRAINT "operator_recovery_codes_pk" PRIMARY KEY("operator_id","code_hash")
);
--> statement-breakpoint
CREATE TABLE "ad_spend" (
	"month" date NOT NULL,
	"source" text NOT NULL,
	"campaign" text DEFAULT '' NOT NULL,
	"amount_cents" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ad_spend_pk" PRIMARY KEY("month","source","campaign"),
	CONSTRAINT "ad_spend_amount_not_negative" CHECK ("ad_spend"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "conversion_actions" (
	"action" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"default_value_cents" integer NOT NULL,
	"enabled" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversion_downloads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"row_count" integer NOT NULL,
	"body" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "downloaded_conversions" (
	"platform" text NOT NULL,
	"conversion" text NOT NULL,
	"download_id" uuid NOT NULL,
	CONSTRAINT "downloaded_conversions_pk" PRIMARY KEY("platform","conversion")
);
--> statement-breakpoint
CREATE TABLE "weekly_digests" (
	"week_start" date PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"purpose" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" text,
	"channel" text NOT NULL,
	"payload" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"business" text NOT NULL,
	"phone" text NOT NULL,
	"email" text NOT NULL,
	"services" text[] NOT NULL,
	"zip_codes" text[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referrals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"contact_request_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"offered_by" text NOT NULL,
	"offered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	"timeout_alerted_at" timestamp with time zone,
	CONSTRAINT "referrals_answer_known" CHECK ("referrals"."answer" IS NULL OR "referrals"."answer" IN ('accepted', 'declined'))
);
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_one_request";--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_contact_request_id_contact_requests_id_fk";
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_privacy_request_id_privacy_requests_id_fk";
--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "zip" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "escalated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "job_value_cents" integer;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_pending_secret" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_last_step" integer;--> statement-breakpoint
ALTER TABLE "sign_in_failures" ADD COLUMN "last_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_recovery_codes" ADD CONSTRAINT "operator_recovery_codes_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloaded_conversions" ADD CONSTRAINT "downloaded_conversions_download_id_conversion_downloads_id_fk" FOREIGN KEY ("download_id") REFERENCES "public"."conversion_downloads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_contact_request_id_contact_requests_id_fk" FOREIGN KEY ("contact_request_id") REFERENCES "public"."contact_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_subscriptions_operator_idx" ON "push_subscriptions" USING btree ("operator_id");--> statement-breakpoint
CREATE INDEX "calls_started_at_idx" ON "calls" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "number_holds_held_until_idx" ON "number_holds" USING btree ("held_until");--> statement-breakpoint
CREATE INDEX "conversion_downloads_platform_idx" ON "conversion_downloads" USING btree ("platform","created_at");--> statement-breakpoint
CREATE INDEX "outbox_messages_pending_idx" ON "outbox_messages" USING btree ("next_attempt_at") WHERE "outbox_messages"."sent_at" IS NULL AND "outbox_messages"."failed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "referrals_lead_idx" ON "referrals" USING btree ("contact_request_id");--> statement-breakpoint
CREATE INDEX "referrals_partner_idx" ON "referrals" USING btree ("partner_id");--> statement-breakpoint
CREATE INDEX "referrals_unanswered_idx" ON "referrals" USING btree ("offered_at") WHERE "referrals"."answered_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "referrals_one_acceptance" ON "referrals" USING btree ("contact_request_id") WHERE "referrals"."answer" = 'accepted';--> statement-breakpoint
CREATE INDEX "contact_requests_unescalated_idx" ON "contact_requests" USING btree ("received_at") WHERE "contact_requests"."opened_at" IS NULL AND "contact_requests"."escalated_at" IS NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_one_request" CHECK ("email_outbox"."contact_request_id" IS NULL OR "email_outbox"."privacy_request_id" IS NULL);