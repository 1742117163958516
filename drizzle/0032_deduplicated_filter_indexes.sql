-- The trigger and version filters' indexes without started_at (issue 28, stored bytes): each key is one of a handful,
-- which B-tree deduplication stores once per page with its rows' places, ~8 bytes a log where (…, started_at) took 61.
-- A rare value's page is a bitmap of its runs sorted; a common one's walks the workspace's index (bench/REPORT-logs.md).
-- Building them reads the logs once, holding executions locked meanwhile (docs/operations.md "Upgrades").
DROP INDEX "executions_ws_trigger_started_idx";--> statement-breakpoint
DROP INDEX "executions_ws_version_started_idx";--> statement-breakpoint
CREATE INDEX "executions_ws_trigger_idx" ON "executions" USING btree ("workspace_id","trigger");--> statement-breakpoint
CREATE INDEX "executions_ws_version_idx" ON "executions" USING btree ("workspace_id","deployment_version");