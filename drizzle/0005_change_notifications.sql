-- Every change to what server processes cache (keys, workspaces, members, workflows, deployments, environment
-- variables, webhook subscriptions and paths) sends `NOTIFY sluice_changes, '<table>:<key>'` when its transaction
-- commits, so every process drops its copy (services/cache). Written as triggers so that no code path — a service,
-- the CLI in another process, a manual SQL fix — can change these rows without telling the caches.
CREATE FUNCTION sluice_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_key text := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) ->> TG_ARGV[0] END;
  old_key text := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) ->> TG_ARGV[0] END;
BEGIN
  IF new_key IS NOT NULL THEN PERFORM pg_notify('sluice_changes', TG_TABLE_NAME || ':' || new_key); END IF;
  IF old_key IS NOT NULL AND old_key IS DISTINCT FROM new_key THEN
    PERFORM pg_notify('sluice_changes', TG_TABLE_NAME || ':' || old_key);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- lastUsedAt bookkeeping does not change what a key grants, so it does not invalidate.
CREATE TRIGGER api_keys_changed AFTER INSERT OR DELETE OR UPDATE OF user_id, workspace_id, key_hash, revoked_at
  ON api_keys FOR EACH ROW EXECUTE FUNCTION sluice_notify_change('key_hash');
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION sluice_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER workspaces_changed AFTER INSERT OR UPDATE OR DELETE ON workspaces
  FOR EACH ROW EXECUTE FUNCTION sluice_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER workspace_members_changed AFTER INSERT OR UPDATE OR DELETE ON workspace_members
  FOR EACH ROW EXECUTE FUNCTION sluice_notify_change('workspace_id');
--> statement-breakpoint
CREATE TRIGGER workflows_changed AFTER INSERT OR UPDATE OR DELETE ON workflows
  FOR EACH ROW EXECUTE FUNCTION sluice_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER deployments_changed AFTER INSERT OR UPDATE OR DELETE ON deployments
  FOR EACH ROW EXECUTE FUNCTION sluice_notify_change('workflow_id');
--> statement-breakpoint
CREATE TRIGGER env_vars_changed AFTER INSERT OR UPDATE OR DELETE ON env_vars
  FOR EACH ROW EXECUTE FUNCTION sluice_notify_change('workspace_id');
--> statement-breakpoint
CREATE TRIGGER webhook_subscriptions_changed AFTER INSERT OR UPDATE OR DELETE ON webhook_subscriptions
  FOR EACH ROW EXECUTE FUNCTION sluice_notify_change('workflow_id');
--> statement-breakpoint
CREATE TRIGGER webhook_trigger_paths_changed AFTER INSERT OR UPDATE OR DELETE ON webhook_trigger_paths
  FOR EACH ROW EXECUTE FUNCTION sluice_notify_change('path');
