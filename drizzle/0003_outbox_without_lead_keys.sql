ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_contact_request_id_contact_requests_id_fk";
--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_privacy_request_id_privacy_requests_id_fk";
