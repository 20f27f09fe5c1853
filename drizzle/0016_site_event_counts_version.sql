CREATE TABLE "site_event_counts_version" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "site_event_counts_version_one_row" CHECK ("site_event_counts_version"."one")
);
--> statement-breakpoint
INSERT INTO "site_event_counts_version" DEFAULT VALUES;--> statement-breakpoint
-- hand-written: the version is raised by the database itself, a statement at a time, so whatever writes to a day that
-- is over (the counters of any instance, the retention purge, an operator's SQL) is seen by every instance. The
-- table is "derived:": a backup leaves it out, and a restored database starts from this migration's row.
COMMENT ON TABLE "site_event_counts_version" IS 'derived: raised by the triggers on site_event_counts';--> statement-breakpoint
CREATE FUNCTION site_event_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    UPDATE site_event_counts_version SET version = version + 1
      WHERE EXISTS (SELECT 1 FROM changed WHERE day < (now() AT TIME ZONE 'UTC')::date)
        OR EXISTS (SELECT 1 FROM changed_to WHERE day < (now() AT TIME ZONE 'UTC')::date);
  ELSE
    UPDATE site_event_counts_version SET version = version + 1
      WHERE EXISTS (SELECT 1 FROM changed WHERE day < (now() AT TIME ZONE 'UTC')::date);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- A statement-level trigger with a transition table takes one event, so each kind of write has its own.
CREATE TRIGGER site_event_counts_inserted AFTER INSERT ON "site_event_counts"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION site_event_counts_changed();--> statement-breakpoint
CREATE TRIGGER site_event_counts_updated AFTER UPDATE ON "site_event_counts"
  REFERENCING OLD TABLE AS changed NEW TABLE AS changed_to FOR EACH STATEMENT
  EXECUTE FUNCTION site_event_counts_changed();--> statement-breakpoint
CREATE TRIGGER site_event_counts_deleted AFTER DELETE ON "site_event_counts"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION site_event_counts_changed();
