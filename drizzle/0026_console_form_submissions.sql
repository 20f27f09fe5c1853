CREATE TABLE "console_form_submissions" (
	"operator_id" uuid NOT NULL,
	"form_key" text NOT NULL,
	"outcome" jsonb,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "console_form_submissions_pk" PRIMARY KEY("operator_id","form_key")
);
--> statement-breakpoint
ALTER TABLE "console_form_submissions" ADD CONSTRAINT "console_form_submissions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "console_form_submissions_sent_idx" ON "console_form_submissions" USING btree ("sent_at");