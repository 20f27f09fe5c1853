CREATE TABLE "call_offers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"call_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"partner_id" uuid NOT NULL,
	"business" text NOT NULL,
	"phone" text NOT NULL,
	"fee_minor" integer NOT NULL,
	"status" text DEFAULT 'ringing' NOT NULL,
	"offered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	"taken_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"talk_seconds" integer,
	"missed_because" text,
	CONSTRAINT "call_offers_status_known" CHECK ("call_offers"."status" IN ('ringing', 'taken', 'ended', 'missed'))
);
--> statement-breakpoint
ALTER TABLE "lead_returns" ALTER COLUMN "referral_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "zip" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "service" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "routed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "partner_id" uuid;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "billing" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "charge_minor" integer;--> statement-breakpoint
ALTER TABLE "lead_returns" ADD COLUMN "call_id" uuid;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "call_id" uuid;--> statement-breakpoint
ALTER TABLE "call_offers" ADD CONSTRAINT "call_offers_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_offers" ADD CONSTRAINT "call_offers_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "call_offers_one_per_position" ON "call_offers" USING btree ("call_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "call_offers_one_call_per_partner" ON "call_offers" USING btree ("partner_id") WHERE "call_offers"."status" IN ('ringing', 'taken');--> statement-breakpoint
CREATE INDEX "call_offers_partner_idx" ON "call_offers" USING btree ("partner_id","offered_at");--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calls_billed_caller_idx" ON "calls" USING btree ("partner_id","caller","started_at") WHERE "calls"."billing" = 'billable';--> statement-breakpoint
CREATE UNIQUE INDEX "lead_returns_one_per_call" ON "lead_returns" USING btree ("call_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_one_call_charge" ON "ledger_entries" USING btree ("call_id") WHERE "ledger_entries"."kind" = 'charge';--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_billing_known" CHECK ("calls"."billing" IS NULL OR "calls"."billing" IN ('billable', 'short', 'repeat-caller', 'no-fee'));--> statement-breakpoint
ALTER TABLE "lead_returns" ADD CONSTRAINT "lead_returns_referral_or_call" CHECK (("lead_returns"."referral_id" IS NULL) <> ("lead_returns"."call_id" IS NULL));