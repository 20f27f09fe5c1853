CREATE INDEX "calls_caller_key_idx" ON "calls" USING btree (right(regexp_replace("caller", '\D', '', 'g'), 10));--> statement-breakpoint
CREATE INDEX "contact_requests_phone_key_idx" ON "contact_requests" USING btree (right(regexp_replace("phone", '\D', '', 'g'), 10),"received_at");--> statement-breakpoint
CREATE INDEX "lead_changes_booked_idx" ON "lead_changes" USING btree ("changed_at") WHERE "lead_changes"."status_to" = 'Booked';--> statement-breakpoint
CREATE INDEX "email_outbox_contact_request_idx" ON "email_outbox" USING btree ("contact_request_id") WHERE "email_outbox"."contact_request_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "email_outbox_privacy_request_idx" ON "email_outbox" USING btree ("privacy_request_id") WHERE "email_outbox"."privacy_request_id" IS NOT NULL;--> statement-breakpoint
-- hand-written: trigram indexes (pg_trgm), so that the inbox's search for any part of a name, an email or a phone number's digits and the calls page's search for a caller's digits read an index, not every row.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "contact_requests_name_search_idx" ON "contact_requests" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contact_requests_email_search_idx" ON "contact_requests" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contact_requests_phone_search_idx" ON "contact_requests" USING gin (regexp_replace("phone", '\D', '', 'g') gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "calls_caller_search_idx" ON "calls" USING gin (regexp_replace("caller", '\D', '', 'g') gin_trgm_ops);
