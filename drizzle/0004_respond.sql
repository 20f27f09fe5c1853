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
ALTER TABLE "contact_requests" ADD COLUMN "zip" text;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "escalated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_contact_request_id_contact_requests_id_fk" FOREIGN KEY ("contact_request_id") REFERENCES "public"."contact_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_subscriptions_operator_idx" ON "push_subscriptions" USING btree ("operator_id");--> statement-breakpoint
CREATE INDEX "referrals_lead_idx" ON "referrals" USING btree ("contact_request_id");--> statement-breakpoint
CREATE INDEX "referrals_partner_idx" ON "referrals" USING btree ("partner_id");--> statement-breakpoint
CREATE INDEX "referrals_unanswered_idx" ON "referrals" USING btree ("offered_at") WHERE "referrals"."answered_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "referrals_one_acceptance" ON "referrals" USING btree ("contact_request_id") WHERE "referrals"."answer" = 'accepted';--> statement-breakpoint
CREATE INDEX "contact_requests_unescalated_idx" ON "contact_requests" USING btree ("received_at") WHERE "contact_requests"."opened_at" IS NULL AND "contact_requests"."escalated_at" IS NULL;