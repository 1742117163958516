// The active deployment of a workflow together with what every trigger needs before it runs: the workspace owner
// (whose plan sets the limits and who is charged). Read once per change, from the cache: the state is frozen, so
// no run can alter what the next one sees.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { deepFreeze } from '../deep-freeze.js';
import { deployments, users, workflows, workspaces } from '../db/schema.js';
import type { WorkflowState } from '../workflow/index.js';
import type { AppContext } from '../services/app-context.js';
import { cached, topics } from '../services/cache/app-caches.js';

export interface DeployedWorkflow {
  workflow: { id: string; workspaceId: string; name: string; chatPublic: boolean };
  /** null when the workflow exists but is not deployed. */
  deployment: { version: number; state: WorkflowState; stateHash: string } | null;
  owner: { id: string; plan: string };
}

async function readDeployedWorkflow(db: Db, workflowId: string): Promise<DeployedWorkflow | undefined> {
  const [row] = await db
    .select({
      id: workflows.id,
      workspaceId: workflows.workspaceId,
      name: workflows.name,
      chatPublic: workflows.chatPublic,
      version: deployments.version,
      state: deployments.state,
      stateHash: deployments.stateHash,
      ownerId: users.id,
      ownerPlan: users.plan,
    })
    .from(workflows)
    .innerJoin(workspaces, eq(workspaces.id, workflows.workspaceId))
    .innerJoin(users, eq(users.id, workspaces.ownerId))
    .leftJoin(deployments, and(eq(deployments.workflowId, workflows.id), eq(deployments.version, workflows.activeVersion)))
    .where(eq(workflows.id, workflowId))
    .limit(1);
  if (!row) return undefined;
  return {
    workflow: { id: row.id, workspaceId: row.workspaceId, name: row.name, chatPublic: row.chatPublic },
    deployment:
      row.version === null || row.state === null || row.stateHash === null
        ? null
        : { version: row.version, state: deepFreeze(row.state), stateHash: row.stateHash },
    owner: { id: row.ownerId, plan: row.ownerPlan },
  };
}

/** undefined when there is no such workflow. */
export function loadDeployedWorkflow(app: AppContext, workflowId: string): Promise<DeployedWorkflow | undefined> {
  return cached(app.caches, 'deployedWorkflows', workflowId, async () => {
    const value = await readDeployedWorkflow(app.db, workflowId);
    const changes = [topics.workflow(workflowId), topics.deployments(workflowId)];
    if (value) changes.push(topics.workspace(value.workflow.workspaceId), topics.user(value.owner.id));
    return { value, topics: changes };
  });
}

/** What runs: the workflow, the state (a deployment, or the draft for manual runs) and who pays. */
export interface RunTarget {
  workflow: { id: string; workspaceId: string };
  state: WorkflowState;
  stateHash?: string;
  /** null for the draft. */
  deploymentVersion: number | null;
  owner: { id: string; plan: string };
}

/**
 * What a queued run (async call, schedule tick) runs: the deployment version it was queued against — the cached
 * active one when it still is, else read from its table (a run queued before a redeploy still runs what it was queued
 * against). undefined when the workflow or that version is gone.
 */
export async function loadDeploymentVersion(app: AppContext, workflowId: string, version: number): Promise<RunTarget | undefined> {
  const deployed = await loadDeployedWorkflow(app, workflowId);
  if (!deployed) return undefined;
  const base = {
    workflow: { id: deployed.workflow.id, workspaceId: deployed.workflow.workspaceId },
    deploymentVersion: version,
    owner: deployed.owner,
  };
  if (deployed.deployment?.version === version) return { ...base, state: deployed.deployment.state, stateHash: deployed.deployment.stateHash };
  const [row] = await app.db
    .select({ state: deployments.state, stateHash: deployments.stateHash })
    .from(deployments)
    .where(and(eq(deployments.workflowId, workflowId), eq(deployments.version, version)))
    .limit(1);
  return row && { ...base, ...row };
}
