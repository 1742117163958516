// The active deployment of a workflow together with what a trigger needs before it runs: the workspace owner
// (whose plan sets the limits and who is charged) — in one query, since every inbound call pays for it.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deployments, users, workflows, workspaces } from '../../db/schema.js';
import type { WorkflowState } from '../../workflow/index.js';

export interface DeployedWorkflow {
  workflow: typeof workflows.$inferSelect;
  /** null when the workflow exists but is not deployed. */
  deployment: { version: number; state: WorkflowState } | null;
  owner: { id: string; plan: string };
}

/** undefined when there is no such workflow. */
export async function loadDeployedWorkflow(db: Db, workflowId: string): Promise<DeployedWorkflow | undefined> {
  const [row] = await db
    .select({ workflow: workflows, version: deployments.version, state: deployments.state, ownerId: users.id, ownerPlan: users.plan })
    .from(workflows)
    .innerJoin(workspaces, eq(workspaces.id, workflows.workspaceId))
    .innerJoin(users, eq(users.id, workspaces.ownerId))
    .leftJoin(deployments, and(eq(deployments.workflowId, workflows.id), eq(deployments.version, workflows.activeVersion)))
    .where(eq(workflows.id, workflowId))
    .limit(1);
  if (!row) return undefined;
  return {
    workflow: row.workflow,
    deployment: row.version === null ? null : { version: row.version, state: row.state as WorkflowState },
    owner: { id: row.ownerId, plan: row.ownerPlan },
  };
}
