-- hand-written: each trigram index keeps at most 64 kB of new entries in its pending list (4 MB by default). The insert that finds the list full moves it into the index itself, and on the embedded database every statement waits for it: at a busy year's size a 4 MB list took 135-332 ms to move, every few thousand leads; a 64 kB one under 17 ms once the index is in the cache, and 16,000 leads took 22.8 s in all against 21.4.
ALTER INDEX "contact_requests_name_search_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
ALTER INDEX "contact_requests_email_search_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
ALTER INDEX "contact_requests_phone_search_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
ALTER INDEX "calls_caller_search_idx" SET (gin_pending_list_limit = 64);
