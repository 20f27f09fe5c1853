DROP INDEX "partners_zip_codes_idx";--> statement-breakpoint
CREATE INDEX "partners_zip_codes_idx" ON "partners" USING gin ("zip_codes") WITH (fastupdate=false);