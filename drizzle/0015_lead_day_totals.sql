CREATE TABLE "lead_day_totals" (
	"day" date NOT NULL,
	"version" integer NOT NULL,
	"path" text NOT NULL,
	"source" text NOT NULL,
	"medium" text NOT NULL,
	"campaign" text NOT NULL,
	"leads" integer NOT NULL,
	"leads_not_spam" integer NOT NULL,
	"booked" integer NOT NULL,
	CONSTRAINT "lead_day_totals_day_version_path_source_medium_campaign_pk" PRIMARY KEY("day","version","path","source","medium","campaign")
);
--> statement-breakpoint
CREATE TABLE "lead_day_versions" (
	"day" date PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"summed_version" integer
);
--> statement-breakpoint
-- hand-written: both tables are made from the leads and their history, so a backup leaves them out (the comment's
-- "derived:" says so) and after a restore every day is summed again.
COMMENT ON TABLE "lead_day_totals" IS 'derived: summed from contact_requests and lead_changes';--> statement-breakpoint
COMMENT ON TABLE "lead_day_versions" IS 'derived: raised by the triggers on contact_requests and lead_changes';
--> statement-breakpoint
-- hand-written: the triggers that raise a UTC day's version in lead_day_versions (and drop its stored totals)
-- whenever a change reaches that day's lead figures, whichever statement makes it (a status change, the retention
-- purge, a privacy deletion, a lead stored late), so that stored totals are never read once they are out of date.
CREATE FUNCTION lead_day_changed(changed date) RETURNS void LANGUAGE sql AS $$
  INSERT INTO lead_day_versions (day, version) VALUES (changed, 1)
    ON CONFLICT (day) DO UPDATE SET version = lead_day_versions.version + 1;
  DELETE FROM lead_day_totals WHERE day = changed;
$$;--> statement-breakpoint
-- The days a lead's figures fall on: the day it was received and each day it was set to Booked (the first of them
-- is the day it counts as booked).
CREATE FUNCTION lead_days_changed(lead_id uuid, received timestamptz) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lead_day_changed(day) FROM (
    SELECT (received AT TIME ZONE 'UTC')::date AS day
    UNION
    SELECT (changed_at AT TIME ZONE 'UTC')::date FROM lead_changes WHERE contact_request_id = lead_id AND status_to = 'Booked'
  ) AS days;
END;
$$;--> statement-breakpoint
CREATE FUNCTION contact_requests_lead_days_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM lead_days_changed(OLD.id, OLD.received_at);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM lead_days_changed(NEW.id, NEW.received_at);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- A lead stored on a later UTC day than it was received (leads arriving now are summed once their day is over).
CREATE TRIGGER contact_requests_received_late AFTER INSERT ON "contact_requests"
  FOR EACH ROW WHEN (NEW.received_at < date_trunc('day', now(), 'UTC'))
  EXECUTE FUNCTION contact_requests_lead_days_changed();--> statement-breakpoint
CREATE TRIGGER contact_requests_figures_changed AFTER UPDATE OF status, received_at, landing_path, referrer_host,
  utm_source, utm_medium, utm_campaign ON "contact_requests"
  FOR EACH ROW WHEN ((OLD.status = 'Spam') IS DISTINCT FROM (NEW.status = 'Spam')
    OR OLD.received_at IS DISTINCT FROM NEW.received_at OR OLD.landing_path IS DISTINCT FROM NEW.landing_path
    OR OLD.referrer_host IS DISTINCT FROM NEW.referrer_host OR OLD.utm_source IS DISTINCT FROM NEW.utm_source
    OR OLD.utm_medium IS DISTINCT FROM NEW.utm_medium OR OLD.utm_campaign IS DISTINCT FROM NEW.utm_campaign)
  EXECUTE FUNCTION contact_requests_lead_days_changed();--> statement-breakpoint
-- Deletions (the retention purge deletes a hundred leads a statement) raise each day once a statement.
CREATE FUNCTION contact_requests_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lead_day_changed(day) FROM (SELECT DISTINCT (received_at AT TIME ZONE 'UTC')::date AS day FROM deleted) AS days;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER contact_requests_deleted AFTER DELETE ON "contact_requests"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION contact_requests_deleted();--> statement-breakpoint
CREATE FUNCTION lead_changes_lead_days_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status_to = 'Booked' THEN
    PERFORM lead_day_changed((OLD.changed_at AT TIME ZONE 'UTC')::date);
    PERFORM lead_day_changed((changed_at AT TIME ZONE 'UTC')::date) FROM lead_changes
      WHERE contact_request_id = OLD.contact_request_id AND status_to = 'Booked';
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status_to = 'Booked' THEN
    PERFORM lead_day_changed((changed_at AT TIME ZONE 'UTC')::date) FROM lead_changes
      WHERE contact_request_id = NEW.contact_request_id AND status_to = 'Booked';
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- A Booked change stored on a later UTC day than it was made: it may come before the lead's first booking so far.
CREATE TRIGGER lead_changes_booked_late AFTER INSERT ON "lead_changes"
  FOR EACH ROW WHEN (NEW.status_to = 'Booked' AND NEW.changed_at < date_trunc('day', now(), 'UTC'))
  EXECUTE FUNCTION lead_changes_lead_days_changed();--> statement-breakpoint
CREATE TRIGGER lead_changes_booked_changed AFTER UPDATE OF contact_request_id, changed_at, status_to ON "lead_changes"
  FOR EACH ROW WHEN ((OLD.status_to = 'Booked' OR NEW.status_to = 'Booked') AND (OLD.contact_request_id IS DISTINCT FROM
    NEW.contact_request_id OR OLD.changed_at IS DISTINCT FROM NEW.changed_at OR OLD.status_to IS DISTINCT FROM NEW.status_to))
  EXECUTE FUNCTION lead_changes_lead_days_changed();--> statement-breakpoint
-- The days of the Booked changes deleted, and of their leads' Booked changes left, once a statement.
CREATE FUNCTION lead_changes_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lead_day_changed(day) FROM (
    SELECT (changed_at AT TIME ZONE 'UTC')::date AS day FROM deleted WHERE status_to = 'Booked'
    UNION
    SELECT (changed_at AT TIME ZONE 'UTC')::date FROM lead_changes WHERE status_to = 'Booked'
      AND contact_request_id IN (SELECT contact_request_id FROM deleted WHERE status_to = 'Booked')
  ) AS days;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER lead_changes_booked_deleted AFTER DELETE ON "lead_changes"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION lead_changes_deleted();
