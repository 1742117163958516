// Workflows (editable drafts) and their deployments (immutable numbered snapshots, one of them active).
import { and, asc, desc, eq, isNull, max } from 'drizzle-orm';
import { blockCatalog } from '../blocks/registry.js';
import type { Db } from '../db/client.js';
import { deployments, folders, workflows } from '../db/schema.js';
import { AppError, badRequest, conflict, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { emptyState, validateState, withoutPins, type WorkflowState } from '../workflow/index.js';
import { checkQueueTriggerFields } from '../triggers/queue-trigger-fields.js';
import { registerTriggers, unregisterTriggers } from '../triggers/registration.js';
import type { Principal } from './api-keys.js';
import { canAccessWorkspace } from './access.js';
import { contentHash } from './crypto.js';
import { checkConnectorOperations } from './connectors.js';
import { checkSubWorkflows } from './sub-workflow-chains.js';
import { markValuesOfDeletedLogs } from './logs/orphaned-values.js';

type WorkflowRow = typeof workflows.$inferSelect;
type DeploymentRow = typeof deployments.$inferSelect;

/**
 * The draft's hash leaves its pinned outputs out: it is the hash a deployment of it gets (deployments hold no pins),
 * and pinning or unpinning is not a change that needs deploying.
 */
const draftHash = (state: WorkflowState) => contentHash(withoutPins(state));

export function checkState(state: unknown, pathPrefix = 'state'): WorkflowState {
  const result = validateState(state, blockCatalog);
  if (!result.ok) {
    throw badRequest(
      'The workflow state is invalid',
      result.problems.map((p) => ({ path: p.path ? `${pathPrefix}.${p.path}` : pathPrefix, message: p.message })),
    );
  }
  return result.state;
}

export function toWorkflowSummary(row: WorkflowRow) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    folderId: row.folderId,
    name: row.name,
    description: row.description,
    chatPublic: row.chatPublic,
    isDeployed: row.activeVersion !== null,
    activeVersion: row.activeVersion,
    deployedAt: row.deployedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toWorkflowView(row: WorkflowRow) {
  return { ...toWorkflowSummary(row), state: row.state };
}

export function toDeploymentView(row: DeploymentRow, activeVersion: number | null) {
  return {
    id: row.id,
    workflowId: row.workflowId,
    version: row.version,
    isActive: row.version === activeVersion,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
  };
}

export async function readWorkflow(db: Db, workflowId: string): Promise<WorkflowRow | undefined> {
  const [row] = await db.select().from(workflows).where(eq(workflows.id, workflowId)).limit(1);
  return row;
}

/** Loads a workflow the principal may reach. Another workspace's workflow is indistinguishable from none. */
export async function getWorkflowForPrincipal(db: Db, principal: Principal, workflowId: string): Promise<WorkflowRow> {
  const row = await readWorkflow(db, workflowId);
  if (!row || !(await canAccessWorkspace(db, principal, row.workspaceId))) throw notFound('Workflow');
  return row;
}

async function assertFolderInWorkspace(db: Db, workspaceId: string, folderId: string | null | undefined) {
  if (!folderId) return;
  const [folder] = await db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.id, folderId), eq(folders.workspaceId, workspaceId)))
    .limit(1);
  if (!folder) throw badRequest('The folder does not exist in this workspace', [{ path: 'folderId', message: 'unknown folder' }]);
}

export async function createWorkflow(
  db: Db,
  input: { workspaceId: string; name: string; description?: string; folderId?: string | null; state?: unknown },
): Promise<WorkflowRow> {
  const state = checkState(input.state ?? emptyState());
  await checkConnectorOperations(db, input.workspaceId, state);
  await checkQueueTriggerFields(db, input.workspaceId, state, { credentialRequired: false });
  await assertFolderInWorkspace(db, input.workspaceId, input.folderId);
  const [row] = await db
    .insert(workflows)
    .values({
      id: newId('wf'),
      workspaceId: input.workspaceId,
      folderId: input.folderId ?? null,
      name: input.name,
      description: input.description ?? '',
      state,
      stateHash: draftHash(state),
    })
    .returning();
  return row;
}

export async function updateWorkflow(
  db: Db,
  row: WorkflowRow,
  patch: { name?: string; description?: string; folderId?: string | null; state?: unknown; chatPublic?: boolean },
): Promise<WorkflowRow> {
  const changes: Partial<typeof workflows.$inferInsert> = { updatedAt: new Date() };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.description !== undefined) changes.description = patch.description;
  if (patch.chatPublic !== undefined) changes.chatPublic = patch.chatPublic;
  if (patch.folderId !== undefined) {
    await assertFolderInWorkspace(db, row.workspaceId, patch.folderId);
    changes.folderId = patch.folderId;
  }
  if (patch.state !== undefined) {
    const state = checkState(patch.state);
    await checkConnectorOperations(db, row.workspaceId, state);
    await checkQueueTriggerFields(db, row.workspaceId, state, { credentialRequired: false });
    changes.state = state;
    changes.stateHash = draftHash(state);
  }
  const [updated] = await db.update(workflows).set(changes).where(eq(workflows.id, row.id)).returning();
  if (!updated) throw notFound('Workflow');
  return updated;
}

export async function deleteWorkflow(db: Db, workflowId: string): Promise<void> {
  await db.transaction(async (tx) => {
    // Held first: a run inserting a log of it holds a key share of this row until it commits, so that log is in
    // before the delete, and none is inserted after (its write then fails on the foreign key, as before).
    const [row] = await tx
      .select({ id: workflows.id, workspaceId: workflows.workspaceId })
      .from(workflows)
      .where(eq(workflows.id, workflowId))
      .for('update');
    if (!row) return;
    // Paths and schedules cascade with the row; the queued schedule ticks are jobs and have to go explicitly.
    await unregisterTriggers(tx, workflowId);
    await tx.delete(workflows).where(eq(workflows.id, workflowId));
    // Its logs went by cascade; their values in file storage are left to housekeeping, marked in this transaction.
    await markValuesOfDeletedLogs(tx, row.workspaceId);
  });
}

export async function listWorkflows(db: Db, filter: { workspaceId: string; folderId?: string | null }) {
  const conditions = [eq(workflows.workspaceId, filter.workspaceId)];
  if (filter.folderId === null) conditions.push(isNull(workflows.folderId));
  else if (filter.folderId) conditions.push(eq(workflows.folderId, filter.folderId));
  const rows = await db
    .select()
    .from(workflows)
    .where(and(...conditions))
    .orderBy(asc(workflows.createdAt), asc(workflows.id));
  return rows.map(toWorkflowSummary);
}

/** Publishes the current draft as the next version and makes it active. */
export async function deployWorkflow(db: Db, workflowId: string, deployedBy: string): Promise<DeploymentRow> {
  return db.transaction(async (tx) => {
    // Row lock: two concurrent deploys of one workflow must not both take the same version number.
    const [row] = await tx.select().from(workflows).where(eq(workflows.id, workflowId)).for('update');
    if (!row) throw notFound('Workflow');
    const state = checkState(row.state);
    await checkConnectorOperations(tx, row.workspaceId, state);
    await checkSubWorkflows(tx, row, state);
    const [{ latest }] = await tx
      .select({ latest: max(deployments.version) })
      .from(deployments)
      .where(eq(deployments.workflowId, workflowId));
    const version = (latest ?? 0) + 1;
    const [deployment] = await tx
      .insert(deployments)
      .values({ id: newId('dep'), workflowId, version, state: withoutPins(state), stateHash: row.stateHash, createdBy: deployedBy })
      .returning();
    await tx
      .update(workflows)
      .set({ activeVersion: version, deployedAt: deployment.createdAt })
      .where(eq(workflows.id, workflowId));
    await registerTriggers(tx, { workflowId, workspaceId: row.workspaceId, state, deploymentVersion: version });
    return deployment;
  });
}

export async function listDeployments(db: Db, row: WorkflowRow) {
  const rows = await db
    .select()
    .from(deployments)
    .where(eq(deployments.workflowId, row.id))
    .orderBy(desc(deployments.version));
  return rows.map((d) => toDeploymentView(d, row.activeVersion));
}

/** Roll back (or forward) to an existing version. */
export async function activateDeployment(db: Db, row: WorkflowRow, version: number) {
  const [deployment] = await db
    .select()
    .from(deployments)
    .where(and(eq(deployments.workflowId, row.id), eq(deployments.version, version)))
    .limit(1);
  if (!deployment) throw notFound(`Deployment version ${version}`);
  await checkSubWorkflows(db, row, deployment.state);
  const updated = await db.transaction(async (tx) => {
    const [activated] = await tx
      .update(workflows)
      .set({ activeVersion: version, deployedAt: new Date() })
      .where(eq(workflows.id, row.id))
      .returning();
    await registerTriggers(tx, { workflowId: row.id, workspaceId: row.workspaceId, state: deployment.state, deploymentVersion: version });
    return activated;
  });
  return { deployment: toDeploymentView(deployment, version), deployedAt: updated.deployedAt!.toISOString() };
}

export async function undeployWorkflow(db: Db, row: WorkflowRow): Promise<void> {
  if (row.activeVersion === null) throw conflict('WORKFLOW_NOT_DEPLOYED', 'The workflow is not deployed');
  await db.transaction(async (tx) => {
    await tx.update(workflows).set({ activeVersion: null, deployedAt: null }).where(eq(workflows.id, row.id));
    await unregisterTriggers(tx, row.id);
  });
}

export async function workflowStatus(db: Db, row: WorkflowRow) {
  if (row.activeVersion === null) return { isDeployed: false, deployedAt: null, needsRedeployment: false };
  const [active] = await db
    .select({ stateHash: deployments.stateHash })
    .from(deployments)
    .where(and(eq(deployments.workflowId, row.id), eq(deployments.version, row.activeVersion)))
    .limit(1);
  return {
    isDeployed: true,
    deployedAt: row.deployedAt?.toISOString() ?? null,
    activeVersion: row.activeVersion,
    needsRedeployment: active?.stateHash !== row.stateHash,
  };
}
