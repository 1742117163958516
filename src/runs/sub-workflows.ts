// Sub-workflows (the workflow block, README "Sub-workflows"): a run's workflow block runs another workflow of the same
// workspace — its active deployment, or its draft when the parent is a manual run of a draft — as an execution of its
// own: logged with `parentExecutionId`, charged for its own model use but not the base charge (a run tree pays the base
// charge once), started at its API trigger with the block's input checked against that trigger's Input Format.
// Chains deeper than MAX_SUB_WORKFLOW_DEPTH or that come back to a workflow already running in them are refused.
import { eq } from 'drizzle-orm';
import type { SubWorkflowDescription, SubWorkflowRequest, SubWorkflowResult } from '../blocks/types.js';
import { workflows } from '../db/schema.js';
import type { TriggerType } from '../workflow/index.js';
import type { AppContext } from '../services/app-context.js';
import { MAX_SUB_WORKFLOW_DEPTH } from '../services/sub-workflow-chains.js';
import type { InputField } from '../blocks/api-trigger.js';
import { checkApiInput, findApiTrigger, inputFormatOf, withDeclaredFields } from './trigger-input.js';
import { loadDeployedWorkflow, type RunTarget } from './deployed-workflow.js';
import type { RunExecution } from './types.js';

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
type ChildTarget = Omit<RunTarget, 'owner'> & { name: string };

const refused = (error: string): SubWorkflowResult => ({ output: {}, executionId: null, error, spans: [] });

async function childTarget(app: AppContext, parent: Pick<ParentRun, 'workspaceId' | 'drafts'>, workflowId: string): Promise<ChildTarget | string> {
  if (parent.drafts) {
    const [row] = await app.db
      .select({ workspaceId: workflows.workspaceId, state: workflows.state, name: workflows.name })
      .from(workflows)
      .where(eq(workflows.id, workflowId))
      .limit(1);
    if (!row || row.workspaceId !== parent.workspaceId) return `No workflow ${workflowId} in this workspace`;
    return { workflow: { id: workflowId, workspaceId: row.workspaceId }, state: row.state, deploymentVersion: null, name: row.name };
  }
  const deployed = await loadDeployedWorkflow(app, workflowId);
  if (!deployed || deployed.workflow.workspaceId !== parent.workspaceId) return `No workflow ${workflowId} in this workspace`;
  if (!deployed.deployment) return `The workflow ${workflowId} is not deployed`;
  return {
    workflow: { id: workflowId, workspaceId: deployed.workflow.workspaceId },
    state: deployed.deployment.state,
    stateHash: deployed.deployment.stateHash,
    deploymentVersion: deployed.deployment.version,
    name: deployed.workflow.name,
  };
}

/**
 * Runs the child as an execution of its own. `run` is the run function itself (run-execution.ts passes it in as it
 * lends this to a run's workflow blocks), so a sub-workflow runs exactly like any execution without this module
 * importing the module that imports it.
 */
export async function runSubWorkflow(
  app: AppContext,
  run: RunExecution,
  parent: ParentRun,
  request: SubWorkflowRequest,
): Promise<SubWorkflowResult> {
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
  const { name: _name, ...runTarget } = target;
  const outcome = await run(app, {
    ...runTarget,
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

const FIELD_SCHEMAS: Record<InputField['type'], Record<string, unknown>> = {
  string: { type: 'string' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  json: {},
  files: { type: 'array', items: { type: 'object' } },
};

/** What a workflow tool offers the model: the child's API trigger Input Format as a JSON Schema. */
export async function describeSubWorkflow(
  app: AppContext,
  parent: Pick<ParentRun, 'workspaceId' | 'drafts'>,
  workflowId: string,
): Promise<SubWorkflowDescription | { error: string }> {
  const target = await childTarget(app, parent, workflowId);
  if (typeof target === 'string') return { error: target };
  const trigger = findApiTrigger(target.state);
  if (!trigger) return { error: `The workflow ${workflowId} has no API trigger to start it` };
  const fields = inputFormatOf(trigger);
  const properties: Record<string, unknown> = {};
  for (const field of fields) {
    properties[field.name] = { ...FIELD_SCHEMAS[field.type], ...(field.description ? { description: field.description } : {}) };
  }
  const required = fields.filter((field) => field.required).map((field) => field.name);
  return {
    name: target.name,
    description: '',
    parameters: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
  };
}
