CREATE TABLE "backup_days" (
	"day" text PRIMARY KEY NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "backup_watch" (
	"id" integer PRIMARY KEY NOT NULL,
	"watching_since" timestamp with time zone DEFAULT now() NOT NULL,
	"warned_after" text
);
--> statement-breakpoint
CREATE TABLE "backups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"size_bytes" bigint NOT NULL,
	"counts" jsonb NOT NULL,
	"verified_at" timestamp with time zone,
	"verify_error" text,
	CONSTRAINT "backups_file_unique" UNIQUE("file")
);
