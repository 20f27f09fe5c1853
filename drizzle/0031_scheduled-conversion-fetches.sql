CREATE TABLE "scheduled_fetches" (
	"platform" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rolled_at" timestamp with time zone DEFAULT now() NOT NULL
);
