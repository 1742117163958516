-- Values of logs deleted with their workflow (docs/operations.md "Large values in logs"): their `files` rows had no
-- log left and were never deleted. A deleted workflow's values now lose their execution id with it, and housekeeping
-- deletes those it finds through this index (services/logs/orphaned-values.ts). The values of workflows deleted
-- before are marked the same way here, so the first pass after the upgrade deletes them; this reads the execution ids
-- of every log once (about a second per million logs).
UPDATE "files" SET "execution_id" = NULL
WHERE "storage_key" LIKE 'executions/%/values/%' AND "execution_id" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "executions" "e" WHERE "e"."execution_id" = "files"."execution_id");--> statement-breakpoint
CREATE INDEX "files_orphaned_values_idx" ON "files" USING btree ("id") WHERE "files"."execution_id" is null and "files"."storage_key" like 'executions/%/values/%';
