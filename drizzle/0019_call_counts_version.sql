CREATE TABLE "call_counts_version" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "call_counts_version_one_row" CHECK ("call_counts_version"."one")
);
--> statement-breakpoint
INSERT INTO "call_counts_version" DEFAULT VALUES;--> statement-breakpoint
-- hand-written: the version is raised by the database itself, a statement at a time, so whatever writes a call of a
-- day that is over (a call's outcome after midnight, from any instance, the retention purge, an operator's SQL) is
-- seen by every instance. The table is "derived:": a backup leaves it out, and a restored database starts from this
-- migration's row.
COMMENT ON TABLE "call_counts_version" IS 'derived: raised by the triggers on calls';--> statement-breakpoint
CREATE FUNCTION calls_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    UPDATE call_counts_version SET version = version + 1
      WHERE EXISTS (SELECT 1 FROM changed WHERE started_at < date_trunc('day', now(), 'UTC'))
        OR EXISTS (SELECT 1 FROM changed_to WHERE started_at < date_trunc('day', now(), 'UTC'));
  ELSE
    UPDATE call_counts_version SET version = version + 1
      WHERE EXISTS (SELECT 1 FROM changed WHERE started_at < date_trunc('day', now(), 'UTC'));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- A statement-level trigger with a transition table takes one event, so each kind of write has its own.
CREATE TRIGGER calls_inserted AFTER INSERT ON "calls"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION calls_changed();--> statement-breakpoint
CREATE TRIGGER calls_updated AFTER UPDATE ON "calls"
  REFERENCING OLD TABLE AS changed NEW TABLE AS changed_to FOR EACH STATEMENT
  EXECUTE FUNCTION calls_changed();--> statement-breakpoint
CREATE TRIGGER calls_deleted AFTER DELETE ON "calls"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION calls_changed();
