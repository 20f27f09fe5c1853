CREATE TABLE "auto_referrals" (
	"contact_request_id" uuid PRIMARY KEY NOT NULL,
	"priority" integer,
	"offered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "auto_referrals" ADD CONSTRAINT "auto_referrals_contact_request_id_contact_requests_id_fk" FOREIGN KEY ("contact_request_id") REFERENCES "public"."contact_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auto_referrals_waiting_idx" ON "auto_referrals" USING btree ("offered_at") WHERE "auto_referrals"."finished_at" IS NULL;