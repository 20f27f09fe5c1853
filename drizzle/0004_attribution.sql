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
ALTER TABLE "contact_requests" ADD COLUMN "fbclid" text;