-- A workflow's logs indexed without the workspace (issue 28, stored bytes): the workflow implies its workspace, and
-- the query keeps its workspace condition. ~27 bytes less a log; the cascade of a workflow's deletion uses it too.
-- Building it reads the logs once, ~4 s per million logs, holding executions locked meanwhile (docs/operations.md "Upgrades").
DROP INDEX "executions_ws_workflow_started_idx";--> statement-breakpoint
CREATE INDEX "executions_workflow_started_idx" ON "executions" USING btree ("workflow_id","started_at");