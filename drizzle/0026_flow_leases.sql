ALTER TABLE "workflows" ADD COLUMN "flow_lease_holder" text;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "flow_lease_after" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "workflows_flow_lease_idx" ON "workflows" USING btree ("flow_lease_holder") WHERE "workflows"."flow_lease_holder" is not null;--> statement-breakpoint
-- A flow control lease (runs/flow-leases.ts) changes hands without changing anything a cache holds: the trigger that
-- tells caches of a workflow's changes no longer fires when only the lease's columns are set.
DROP TRIGGER workflows_changed ON workflows;--> statement-breakpoint
CREATE TRIGGER workflows_changed AFTER INSERT OR DELETE OR UPDATE OF id, workspace_id, folder_id, name, description, state, state_hash, chat_public, active_version, deployed_at, created_at, updated_at
  ON workflows FOR EACH ROW EXECUTE FUNCTION sluice_notify_change('id');
