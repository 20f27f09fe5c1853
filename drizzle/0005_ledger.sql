CREATE TABLE "lead_returns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"referral_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"detail" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decision" text,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"denial_reason" text
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"partner_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recorded_by" text,
	"referral_id" uuid,
	"return_id" uuid,
	"service" text,
	"zip" text,
	"occurred_on" text,
	"method" text,
	"reference" text,
	"note" text,
	CONSTRAINT "ledger_entries_kind_known" CHECK ("ledger_entries"."kind" IN ('charge', 'credit', 'payment', 'adjustment')),
	CONSTRAINT "ledger_entries_sign" CHECK (("ledger_entries"."kind" = 'charge' AND "ledger_entries"."amount_minor" > 0) OR ("ledger_entries"."kind" IN ('credit', 'payment') AND "ledger_entries"."amount_minor" < 0) OR ("ledger_entries"."kind" = 'adjustment' AND "ledger_entries"."amount_minor" <> 0))
);
--> statement-breakpoint
CREATE TABLE "ledger_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"default_fee_minor" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "fee_minor" integer;--> statement-breakpoint
ALTER TABLE "lead_returns" ADD CONSTRAINT "lead_returns_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lead_returns_one_per_referral" ON "lead_returns" USING btree ("referral_id");--> statement-breakpoint
CREATE INDEX "lead_returns_open_idx" ON "lead_returns" USING btree ("requested_at") WHERE "lead_returns"."decision" IS NULL;--> statement-breakpoint
CREATE INDEX "ledger_entries_partner_idx" ON "ledger_entries" USING btree ("partner_id","recorded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_one_charge" ON "ledger_entries" USING btree ("referral_id") WHERE "ledger_entries"."kind" = 'charge';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_one_credit" ON "ledger_entries" USING btree ("return_id") WHERE "ledger_entries"."kind" = 'credit';--> statement-breakpoint
-- hand-written: the ledger is append-only; no entry is ever changed or deleted, whoever asks.
CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries are never changed or deleted: record a new entry instead';
END;
$$;--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();
