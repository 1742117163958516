// POST /api/workflows/{workflowId}/execute — the API trigger (SEED.md §Endpoints 1, SPEC §4).
// Every check that can refuse the call (auth, access, deployment, limits, input) happens before a run starts,
// so a streaming caller gets ordinary JSON errors and a stream only once the run is under way.
import { Hono, type Context } from 'hono';
import { and, eq } from 'drizzle-orm';
import { deployments, users, workflows, workspaceMembers, workspaces } from '../../db/schema.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import type { Principal } from '../../services/api-keys.js';
import type { AppContext } from '../../services/app-context.js';
import { enqueueAsyncExecution } from '../../services/async-executions.js';
import { runExecution, type RunExecutionInput } from '../../services/executions.js';
import { checkFileInputs, storeFileInputs, type UserFile } from '../../services/files/index.js';
import {
  checkIdempotencyKey,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from '../../services/idempotency.js';
import { admitRun } from '../../services/admission.js';
import { createChunkRouter, defaultSelection, parseSelectedOutputs } from '../../services/output-selection.js';
import { checkApiInput, findApiTrigger, inputFormatOf, withDeclaredFields } from '../../services/trigger-input.js';
import { newId } from '../../ids.js';
import type { WorkflowState } from '../../workflow/index.js';
import { requireApiKey } from '../auth.js';
import { readJsonBodyLimited } from '../body.js';
import type { AppEnv } from '../env.js';
import { errorResponse, toAppError } from '../errors.js';
import { responseFor, sendResponse } from '../execution-response.js';
import { id } from '../schemas.js';
import { doneRecord, streamRun } from '../sse.js';
import { parseWith } from '../validation.js';

interface PreparedRun {
  app: AppContext;
  executionId: string;
  workflow: typeof workflows.$inferSelect;
  state: WorkflowState;
  deploymentVersion: number;
  input: Record<string, unknown>;
  files: UserFile[];
  stream: boolean;
  selectedOutputs?: string[];
  headers: Record<string, string>;
  owner: { id: string; plan: string };
}

/**
 * Everything the call needs to know before it runs, in one query: the workflow, whether the caller is a member of
 * its workspace, the active deployment and the workspace owner (whose plan sets the limits).
 * 404 when there is no such workflow, 403 when the key cannot reach its workspace (SPEC §4), 409 when undeployed.
 */
async function loadForExecution(app: AppContext, principal: Principal, workflowId: string) {
  const [row] = await app.db
    .select({ workflow: workflows, deployment: deployments, ownerId: users.id, ownerPlan: users.plan, memberId: workspaceMembers.userId })
    .from(workflows)
    .innerJoin(workspaces, eq(workspaces.id, workflows.workspaceId))
    .innerJoin(users, eq(users.id, workspaces.ownerId))
    .leftJoin(deployments, and(eq(deployments.workflowId, workflows.id), eq(deployments.version, workflows.activeVersion)))
    .leftJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, workflows.workspaceId), eq(workspaceMembers.userId, principal.userId)),
    )
    .where(eq(workflows.id, workflowId))
    .limit(1);
  if (!row) throw notFound('Workflow');
  const reachable = row.memberId !== null && (!principal.keyWorkspaceId || principal.keyWorkspaceId === row.workflow.workspaceId);
  if (!reachable) throw forbidden('This API key has no access to the workspace of that workflow');
  if (!row.deployment) {
    throw new AppError('WORKFLOW_NOT_DEPLOYED', 409, 'The workflow is not deployed; deploy it to call it through the API');
  }
  return { workflow: row.workflow, deployment: row.deployment, owner: { id: row.ownerId, plan: row.ownerPlan } };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseControlKeys(body: Record<string, unknown>) {
  const { stream: streamFlag, selectedOutputs, ...rest } = body;
  const problems: Array<{ path: string; message: string }> = [];
  if (streamFlag !== undefined && typeof streamFlag !== 'boolean') problems.push({ path: 'stream', message: 'must be a boolean' });
  const selectedOk =
    selectedOutputs === undefined ||
    (Array.isArray(selectedOutputs) && selectedOutputs.length <= 100 && selectedOutputs.every((s) => typeof s === 'string' && s.length <= 300));
  if (!selectedOk) problems.push({ path: 'selectedOutputs', message: 'must be an array of "blockName.attribute" strings' });
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', 400, 'Invalid control keys', problems);
  return { stream: streamFlag === true, selectedOutputs: selectedOutputs as string[] | undefined, rest };
}

async function prepare(c: Context<AppEnv>, bucket: 'sync' | 'async'): Promise<PreparedRun> {
  const app = c.get('app');
  const principal = c.get('principal');
  const workflowId = parseWith(id, c.req.param('workflowId'), 'workflow id', 'workflowId');
  const { workflow, deployment, owner } = await loadForExecution(app, principal, workflowId);

  // Limits follow the workspace owner's plan, counted per owner across every process.
  const { headers } = await admitRun(app, owner, { rateBucket: bucket });

  const body = await readJsonBodyLimited(c, app.config.maxRequestBytes);
  if (!isPlainObject(body)) throw new AppError('INVALID_JSON', 400, 'The request body must be a JSON object');
  const control = parseControlKeys(body);
  const state = deployment.state as WorkflowState;
  const fields = inputFormatOf(findApiTrigger(state));
  const problems = checkApiInput(fields, control.rest);
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', 400, 'The request body does not match the Input Format', problems);
  // Checked now so an unknown block is a 400 before any stream starts.
  if (control.selectedOutputs) parseSelectedOutputs(state, control.selectedOutputs);

  const input = withDeclaredFields(fields, control.rest);
  const executionId = newId('exec');
  const fileFields = fields.filter((f) => f.type === 'files' && input[f.name] !== null);
  // Every files field is checked before any is stored, so a bad later field leaves nothing behind on disk.
  for (const field of fileFields) checkFileInputs(field.name, input[field.name], app.files.maxFileBytes);
  const files: UserFile[] = [];
  for (const field of fileFields) {
    const stored = await storeFileInputs(app, {
      workspaceId: workflow.workspaceId,
      fieldName: field.name,
      value: input[field.name],
      executionId,
    });
    input[field.name] = stored;
    files.push(...stored);
  }
  return {
    app,
    executionId,
    workflow,
    state,
    deploymentVersion: deployment.version,
    input,
    files,
    stream: control.stream,
    selectedOutputs: control.selectedOutputs,
    headers,
    owner,
  };
}

function executionInput(run: PreparedRun, signal: AbortSignal): RunExecutionInput {
  return {
    workflow: run.workflow,
    state: run.state,
    deploymentVersion: run.deploymentVersion,
    trigger: 'api',
    input: run.input,
    executionId: run.executionId,
    timeoutMs: run.app.config.executionTimeoutMs,
    files: run.files,
    owner: run.owner,
    signal,
  };
}

async function runSync(c: Context<AppEnv>, run: PreparedRun) {
  const { app } = run;
  const idempotencyKey = c.req.header('idempotency-key');
  const { executionId } = run;
  if (idempotencyKey !== undefined) {
    checkIdempotencyKey(idempotencyKey);
    const claim = await claimIdempotencyKey(app.db, { workflowId: run.workflow.id, key: idempotencyKey, executionId });
    if (claim.kind === 'replay') return sendResponse(c, claim.response, { ...run.headers, 'Idempotent-Replayed': 'true' });
  }
  const timeoutMs = app.config.executionTimeoutMs;
  try {
    const outcome = await runExecution(app, executionInput(run, c.req.raw.signal));
    const response = responseFor(outcome, timeoutMs);
    if (idempotencyKey !== undefined) {
      await completeIdempotencyKey(app.db, { workflowId: run.workflow.id, key: idempotencyKey, response });
    }
    return sendResponse(c, response, run.headers);
  } catch (err) {
    if (idempotencyKey !== undefined) await releaseIdempotencyKey(app.db, { workflowId: run.workflow.id, key: idempotencyKey });
    throw err;
  }
}

function runStreaming(c: Context<AppEnv>, run: PreparedRun) {
  const { app } = run;
  const selection = run.selectedOutputs ? parseSelectedOutputs(run.state, run.selectedOutputs) : defaultSelection(run.state);
  return streamRun(c, { headers: run.headers, keepaliveMs: app.config.sseKeepaliveMs }, async ({ send, signal }) => {
    const outcome = await runExecution(app, { ...executionInput(run, signal), onEvent: createChunkRouter(selection, send) });
    return doneRecord(outcome.result);
  });
}

async function runAsync(c: Context<AppEnv>, run: PreparedRun) {
  const queued = await enqueueAsyncExecution(run.app, {
    workflowId: run.workflow.id,
    workspaceId: run.workflow.workspaceId,
    deploymentVersion: run.deploymentVersion,
    input: run.input,
    trigger: 'api',
  });
  for (const [name, value] of Object.entries(run.headers)) c.header(name, value);
  const statusUrl = `/api/jobs/${queued.taskId}`;
  return c.json(
    {
      success: true,
      async: true,
      taskId: queued.taskId,
      jobId: queued.taskId,
      executionId: queued.executionId,
      status: 'queued',
      createdAt: queued.createdAt,
      links: { status: statusUrl },
      statusUrl: `${run.app.config.baseUrl}${statusUrl}`,
    },
    202,
  );
}

export const executeRoutes = new Hono<AppEnv>().post('/:workflowId/execute', requireApiKey, async (c) => {
  try {
    const mode = c.req.header('x-execution-mode')?.toLowerCase();
    const run = await prepare(c, mode === 'async' ? 'async' : 'sync');
    if (mode === 'async') return await runAsync(c, run);
    if (run.stream) return runStreaming(c, run);
    return await runSync(c, run);
  } catch (err) {
    const appError = toAppError(err);
    if (appError.httpStatus >= 500) c.get('app').logger.error({ err }, 'execute failed');
    return errorResponse(c, appError);
  }
});
