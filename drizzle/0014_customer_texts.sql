CREATE TABLE "text_backs" (
	"number" text PRIMARY KEY NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "text_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"customer" text NOT NULL,
	"ours" text NOT NULL,
	"direction" text NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"twilio_sid" text,
	"read_at" timestamp with time zone,
	"purpose" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "text_messages_twilio_sid_unique" UNIQUE("twilio_sid"),
	CONSTRAINT "text_messages_direction_known" CHECK (direction IN ('in', 'out')),
	CONSTRAINT "text_messages_status_known" CHECK (status IN ('received', 'queued', 'sent', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "text_opt_outs" (
	"number" text PRIMARY KEY NOT NULL,
	"opted_out_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "text_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"text_back_message" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "text_settings_one_row" CHECK ("text_settings"."id" = 1)
);
--> statement-breakpoint
CREATE INDEX "text_messages_customer_idx" ON "text_messages" USING btree ("customer","created_at");--> statement-breakpoint
CREATE INDEX "text_messages_created_at_idx" ON "text_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "text_messages_customer_key_idx" ON "text_messages" USING btree (right(regexp_replace("customer", '\D', '', 'g'), 10));--> statement-breakpoint
CREATE INDEX "text_messages_pending_idx" ON "text_messages" USING btree ("next_attempt_at") WHERE "text_messages"."sent_at" IS NULL AND "text_messages"."failed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "text_messages_unread_idx" ON "text_messages" USING btree ("customer") WHERE "text_messages"."direction" = 'in' AND "text_messages"."read_at" IS NULL;