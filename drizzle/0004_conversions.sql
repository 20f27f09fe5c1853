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
ALTER TABLE "contact_requests" ADD COLUMN "job_value_cents" integer;--> statement-breakpoint
ALTER TABLE "downloaded_conversions" ADD CONSTRAINT "downloaded_conversions_download_id_conversion_downloads_id_fk" FOREIGN KEY ("download_id") REFERENCES "public"."conversion_downloads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversion_downloads_platform_idx" ON "conversion_downloads" USING btree ("platform","created_at");