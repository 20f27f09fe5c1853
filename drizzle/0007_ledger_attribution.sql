ALTER TABLE "ledger_entries" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "campaign" text;