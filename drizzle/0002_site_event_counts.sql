CREATE TABLE "site_event_counts" (
	"day" date NOT NULL,
	"path" text NOT NULL,
	"kind" text NOT NULL,
	"placement" text DEFAULT '' NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"medium" text DEFAULT '' NOT NULL,
	"campaign" text DEFAULT '' NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "site_event_counts_pk" PRIMARY KEY("day","path","kind","placement","source","medium","campaign")
);
