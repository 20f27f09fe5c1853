CREATE TABLE "text_back_cap_alerts" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "caller_verification" text;