CREATE SEQUENCE "public"."partner_statement_numbers" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "partner_statements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"number" integer NOT NULL,
	"partner_id" uuid NOT NULL,
	"period" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opening_minor" integer NOT NULL,
	"closing_minor" integer NOT NULL,
	"csv" text NOT NULL,
	CONSTRAINT "partner_statements_number_unique" UNIQUE("number")
);
--> statement-breakpoint
ALTER TABLE "partner_statements" ADD CONSTRAINT "partner_statements_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partner_statements_one_a_month" ON "partner_statements" USING btree ("partner_id","period");