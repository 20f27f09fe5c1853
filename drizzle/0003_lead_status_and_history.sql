CREATE TABLE "lead_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"contact_request_id" uuid NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_by" text NOT NULL,
	"status_from" text,
	"status_to" text,
	"note" text
);
--> statement-breakpoint
ALTER TABLE "contact_requests" ADD COLUMN "status" text DEFAULT 'New' NOT NULL;--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD COLUMN "completed_by" text;--> statement-breakpoint
ALTER TABLE "lead_changes" ADD CONSTRAINT "lead_changes_contact_request_id_contact_requests_id_fk" FOREIGN KEY ("contact_request_id") REFERENCES "public"."contact_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_changes_request_idx" ON "lead_changes" USING btree ("contact_request_id","changed_at");--> statement-breakpoint
CREATE INDEX "contact_requests_status_idx" ON "contact_requests" USING btree ("status");--> statement-breakpoint
ALTER TABLE "contact_requests" ADD CONSTRAINT "contact_requests_status_known" CHECK ("contact_requests"."status" IN ('New', 'Contacted', 'Booked', 'Closed', 'Spam'));