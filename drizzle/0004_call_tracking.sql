CREATE TABLE "calls" (
	"id" uuid PRIMARY KEY NOT NULL,
	"call_sid" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"caller" text NOT NULL,
	"called" text NOT NULL,
	"line" text NOT NULL,
	"status" text DEFAULT 'ringing' NOT NULL,
	"duration_seconds" integer,
	"ended_at" timestamp with time zone,
	"recording_sid" text,
	"recording_seconds" integer,
	"landing_path" text,
	"referrer_host" text,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"utm_term" text,
	"utm_content" text,
	"gclid" text,
	"gbraid" text,
	"wbraid" text,
	"msclkid" text,
	"fbclid" text,
	CONSTRAINT "calls_call_sid_unique" UNIQUE("call_sid"),
	CONSTRAINT "calls_recording_sid_unique" UNIQUE("recording_sid"),
	CONSTRAINT "calls_line_known" CHECK ("calls"."line" IN ('website', 'pool', 'other')),
	CONSTRAINT "calls_status_known" CHECK ("calls"."status" IN ('ringing', 'answered', 'busy', 'no-answer', 'failed', 'canceled', 'voicemail'))
);
--> statement-breakpoint
CREATE TABLE "number_holds" (
	"number" text PRIMARY KEY NOT NULL,
	"hold_id" uuid NOT NULL,
	"held_until" timestamp with time zone NOT NULL,
	"landing_path" text,
	"referrer_host" text,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"utm_term" text,
	"utm_content" text,
	"gclid" text,
	"gbraid" text,
	"wbraid" text,
	"msclkid" text,
	"fbclid" text,
	CONSTRAINT "number_holds_hold_id_unique" UNIQUE("hold_id")
);
--> statement-breakpoint
CREATE INDEX "calls_started_at_idx" ON "calls" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "number_holds_held_until_idx" ON "number_holds" USING btree ("held_until");