CREATE INDEX "executions_models_idx" ON "executions" USING gin ("models");--> statement-breakpoint
CREATE INDEX "executions_ws_duration_idx" ON "executions" USING btree ("workspace_id","total_duration_ms");--> statement-breakpoint
CREATE INDEX "executions_ws_errors_idx" ON "executions" USING btree ("workspace_id","started_at","id") WHERE "executions"."level" = 'error';--> statement-breakpoint
CREATE INDEX "executions_ws_trigger_started_idx" ON "executions" USING btree ("workspace_id","trigger","started_at","id");--> statement-breakpoint
CREATE INDEX "jobs_completed_idx" ON "jobs" USING btree ("completed_at") WHERE "jobs"."status" in ('completed', 'failed');