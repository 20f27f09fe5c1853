ALTER TABLE "ledger_entries" ADD COLUMN "lead_id" uuid;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "campaign" text;