// Sub-workflows (the workflow block, README "Sub-workflows"): a run's workflow block runs another workflow of the same
// workspace — its active deployment, or its draft when the parent is a manual run of a draft — as an execution of its
// own: logged with `parentExecutionId`, charged for its own model use but not the base charge (a run tree pays the base
// charge once), started at its API trigger with the block's input checked against that trigger's Input Format.
// Chains deeper than MAX_SUB_WORKFLOW_DEPTH or that come back to a workflow already running in them are refused.
import { and, eq } from 'drizzle-orm';
import type { SubWorkflowRequest, SubWorkflowResult } from '../blocks/types.js';
import type { Db } from '../db/client.js';
import { deployments, workflows } from '../db/schema.js';
import { badRequest, type ErrorDetail } from '../errors.js';
import type { TriggerType, WorkflowState } from '../workflow/index.js';
import type { AppContext } from '../services/app-context.js';
import { checkApiInput, findApiTrigger, inputFormatOf, withDeclaredFields } from './trigger-input.js';
import { loadDeployedWorkflow, type RunTarget } from './deployed-workflow.js';
import { runExecution } from './run-execution.js';

export const MAX_SUB_WORKFLOW_DEPTH = 10;

/** The run whose workflow block asks. */
export interface ParentRun {
  executionId: string;
  workspaceId: string;
  trigger: TriggerType;
  owner: { id: string; plan: string };
  /** Workflow ids from the root run down to this one. */
  chain: string[];
  /** A manual run of a draft runs its children's drafts too. */
  drafts: boolean;
}

/** The owner is the parent's: a child runs in the same workspace, charged to the same account. */
type ChildTarget = Omit<RunTarget, 'owner'>;

const refused = (error: string): SubWorkflowResult => ({ output: {}, executionId: null, error, spans: [] });

async function childTarget(app: AppContext, parent: ParentRun, workflowId: string): Promise<ChildTarget | string> {
  if (parent.drafts) {
    const [row] = await app.db
      .select({ workspaceId: workflows.workspaceId, state: workflows.state })
      .from(workflows)
      .where(eq(workflows.id, workflowId))
      .limit(1);
    if (!row || row.workspaceId !== parent.workspaceId) return `No workflow ${workflowId} in this workspace`;
    return { workflow: { id: workflowId, workspaceId: row.workspaceId }, state: row.state, deploymentVersion: null };
  }
  const deployed = await loadDeployedWorkflow(app, workflowId);
  if (!deployed || deployed.workflow.workspaceId !== parent.workspaceId) return `No workflow ${workflowId} in this workspace`;
  if (!deployed.deployment) return `The workflow ${workflowId} is not deployed`;
  return {
    workflow: { id: workflowId, workspaceId: deployed.workflow.workspaceId },
    state: deployed.deployment.state,
    stateHash: deployed.deployment.stateHash,
    deploymentVersion: deployed.deployment.version,
  };
}

export async function runSubWorkflow(app: AppContext, parent: ParentRun, request: SubWorkflowRequest): Promise<SubWorkflowResult> {
  if (parent.chain.includes(request.workflowId)) {
    return refused(`The workflow ${request.workflowId} is already running in this chain of sub-workflows (a cycle)`);
  }
  if (parent.chain.length >= MAX_SUB_WORKFLOW_DEPTH) {
    return refused(`Sub-workflows may nest at most ${MAX_SUB_WORKFLOW_DEPTH} levels deep`);
  }
  const target = await childTarget(app, parent, request.workflowId);
  if (typeof target === 'string') return refused(target);
  const trigger = findApiTrigger(target.state);
  if (!trigger) return refused(`The workflow ${request.workflowId} has no API trigger to start it`);
  const fields = inputFormatOf(trigger);
  const problems = checkApiInput(fields, request.input);
  if (problems.length > 0) {
    return refused(`The input does not match the Input Format of ${request.workflowId}: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
  }
  const outcome = await runExecution(app, {
    ...target,
    trigger: parent.trigger,
    triggerBlockId: trigger.id,
    input: withDeclaredFields(fields, request.input),
    signal: request.signal,
    timeoutMs: app.config.executionTimeoutMs,
    onEvent: (event) => {
      if (event.type === 'chunk') request.onChunk(event.chunk);
    },
    owner: parent.owner,
    parent: { executionId: parent.executionId, chain: parent.chain, drafts: parent.drafts },
  });
  const { result } = outcome;
  return {
    output: result.output,
    executionId: outcome.executionId,
    ...(result.success ? {} : { error: result.error ?? 'The sub-workflow failed' }),
    spans: result.traceSpans,
  };
}

/** The workflows a state's workflow blocks run, with the block that runs each. */
function childrenOf(state: WorkflowState): Array<{ blockId: string; workflowId: string }> {
  return Object.values(state.blocks)
    .filter((block) => block.type === 'workflow' && block.enabled !== false && typeof block.config.workflowId === 'string')
    .map((block) => ({ blockId: block.id, workflowId: block.config.workflowId as string }));
}

/**
 * Refuses, at deploy and activate, a version whose sub-workflows (followed through the active deployments of the
 * workflows they name) come back to this workflow, nest deeper than the limit, or name a workflow of another
 * workspace. Workflows not deployed yet are followed no further: the run-time checks cover what they become.
 */
export async function checkSubWorkflows(db: Db, workflow: { id: string; workspaceId: string }, state: WorkflowState): Promise<void> {
  const problems: ErrorDetail[] = [];
  const visit = async (current: WorkflowState, chain: string[], via: string): Promise<void> => {
    for (const child of childrenOf(current)) {
      const path = `${via}${via ? ' → ' : ''}state.blocks.${child.blockId}.config.workflowId`;
      if (child.workflowId === workflow.id || chain.includes(child.workflowId)) {
        problems.push({ path, message: 'runs a workflow that is already in its chain of sub-workflows (a cycle)' });
        continue;
      }
      if (chain.length + 1 >= MAX_SUB_WORKFLOW_DEPTH) {
        problems.push({ path, message: `sub-workflows may nest at most ${MAX_SUB_WORKFLOW_DEPTH} levels deep` });
        continue;
      }
      const [row] = await db
        .select({ workspaceId: workflows.workspaceId, state: deployments.state })
        .from(workflows)
        .leftJoin(deployments, and(eq(deployments.workflowId, workflows.id), eq(deployments.version, workflows.activeVersion)))
        .where(eq(workflows.id, child.workflowId))
        .limit(1);
      if (!row || row.workspaceId !== workflow.workspaceId) {
        problems.push({ path, message: 'is not a workflow of this workspace' });
        continue;
      }
      if (row.state) await visit(row.state, [...chain, child.workflowId], chain.length === 0 ? path : via);
    }
  };
  await visit(state, [workflow.id], '');
  if (problems.length > 0) throw badRequest('The workflow blocks of this version cannot run', problems.slice(0, 50));
}
