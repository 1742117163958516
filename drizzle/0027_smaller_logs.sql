-- Smaller logs (issue 28, stored bytes). The filters' keyset indexes end at started_at: the id that breaks ties is
-- sorted within equal start times by the plan. Building them again reads the logs once, ~10 s per million logs, holding
-- writes to executions meanwhile (docs/operations.md "Upgrades"). The packed trace is kept as bytes (db/schema.ts).
DROP INDEX "executions_ws_workflow_started_idx";--> statement-breakpoint
DROP INDEX "executions_ws_trigger_started_idx";--> statement-breakpoint
DROP INDEX "executions_ws_version_started_idx";--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "trace_packed" "bytea";--> statement-breakpoint
CREATE INDEX "executions_ws_workflow_started_idx" ON "executions" USING btree ("workspace_id","workflow_id","started_at");--> statement-breakpoint
CREATE INDEX "executions_ws_trigger_started_idx" ON "executions" USING btree ("workspace_id","trigger","started_at");--> statement-breakpoint
CREATE INDEX "executions_ws_version_started_idx" ON "executions" USING btree ("workspace_id","deployment_version","started_at");