CREATE TABLE "partner_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"route_calls" boolean DEFAULT false NOT NULL,
	"default_call_fee_minor" integer DEFAULT 0 NOT NULL,
	"refer_automatically" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "takes_calls" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "call_fee_minor" integer;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "hours" text DEFAULT '24/7' NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "calls_per_day" integer;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "priority" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "partners_zip_codes_idx" ON "partners" USING gin ("zip_codes");--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_priority_range" CHECK ("partners"."priority" BETWEEN 1 AND 3);--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_calls_per_day_positive" CHECK ("partners"."calls_per_day" IS NULL OR "partners"."calls_per_day" > 0);--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_call_fee_not_negative" CHECK ("partners"."call_fee_minor" IS NULL OR "partners"."call_fee_minor" >= 0);