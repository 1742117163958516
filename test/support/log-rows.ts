// For tests that write logs straight into `executions` (many of them, with chosen times, models and outcomes): what
// those rows refer to. This workspace gets a workflow, another workspace (with its owner and a workflow) gets one
// whose logs must never show, and the months the logs fall in get their partitions on PostgreSQL.
import { getTableColumns, sql } from 'drizzle-orm';
import { ensureExecutionPartitions } from '../../src/db/executions-partitions.js';
import { executions, logExecutionId } from '../../src/db/schema.js';
import type { TestApp } from './app.js';

/**
 * Makes snapshot `snap_<tag>`, this workspace's workflow `wf_<tag>`, and workspace `ws_other_<tag>` (owner
 * `usr_other_<tag>`) with workflow `wf_other_<tag>`, the names the test's own SQL then refers to. `tag` keeps them
 * apart from other files' (the PostgreSQL pass shares one server); `months`: the first days of the logs' months.
 */
export async function prepareLogRows(t: TestApp, tag: string, months: Date[]): Promise<void> {
  const db = t.app.db;
  const setting = { snapshot: `snap_${tag}`, workflow: `wf_${tag}`, otherWorkspace: `ws_other_${tag}`, otherWorkflow: `wf_other_${tag}` };
  for (const month of months) await ensureExecutionPartitions(db, month);
  await db.execute(sql`insert into state_snapshots (hash, state) values (${setting.snapshot}, '{}') on conflict do nothing`);
  await db.execute(sql`insert into users (id, email, plan) values (${`usr_other_${tag}`}, ${`other-${tag}@example.com`}, 'free')`);
  await db.execute(sql`insert into workspaces (id, name, owner_id) values (${setting.otherWorkspace}, 'Other', ${`usr_other_${tag}`})`);
  for (const [workflow, workspace] of [
    [setting.workflow, t.workspaceId],
    [setting.otherWorkflow, setting.otherWorkspace],
  ]) {
    await db.execute(
      sql`insert into workflows (id, workspace_id, name, description, state, state_hash) values (${workflow}, ${workspace}, ${workflow}, '', '{}', 'h')`,
    );
  }
}

/**
 * An `executions` row's columns with its execution id read as the services read it: a paired log (its id is its
 * execution id's pair) keeps none in its column (db/schema.ts `logExecutionId`).
 */
export const executionRow = { ...getTableColumns(executions), executionId: logExecutionId };
