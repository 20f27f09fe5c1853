ALTER TABLE "partner_statements" ALTER COLUMN "opening_minor" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "partner_statements" ALTER COLUMN "closing_minor" SET DATA TYPE bigint;