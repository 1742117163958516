-- A run's log id is its execution id's pair (src/ids.ts pairedLogId, issue 28: stored bytes): a lookup by execution
-- id finds a log through the primary key (src/db/execution-lookup.ts), and only logs written before are indexed by
-- execution id. ~73 bytes less a log. Building it reads the logs once, holding executions locked meanwhile
-- (docs/operations.md "Upgrades").
DROP INDEX "executions_execution_id_idx";--> statement-breakpoint
CREATE INDEX "executions_unpaired_execution_id_idx" ON "executions" USING btree ("execution_id","started_at") WHERE "executions"."id" <> ('log_' || substr("executions"."execution_id", 6));
