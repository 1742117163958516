// The API trigger (docs/api.md 4): `POST /api/workflows/{id}/execute`. Every check that can refuse
// the call — access, deployment, limits, input, idempotency — happens before a run starts, so a streaming caller gets
// ordinary JSON errors and a stream only once the run is under way. The execution id is fixed first: files are
// stored under it, and plain, streaming and async calls all log under it.
import { AppError, forbidden, notFound } from '../errors.js';
import { newExecutionId } from '../ids.js';
import { canRunInWorkspace } from '../services/access.js';
import {
  activeDeployment,
  admitQueuedRun,
  admitRun,
  checkApiInput,
  checkIdempotencyKey,
  claimIdempotencyKey,
  completeIdempotencyKey,
  debouncedSyncCall,
  debounceOf,
  enqueuePrepared,
  EXECUTION_ID_HEADER,
  type ExecutionOutcome,
  findApiTrigger,
  type FlowWait,
  freeSlot,
  inputFormatOf,
  loadDeployedWorkflow,
  type PreparedRun,
  prepareRun,
  type QueuedExecution,
  releaseIdempotencyKey,
  requestHash,
  runFlowOf,
  runThrottleOf,
  type RunOrigin,
  runPrepared,
  type StoredResponse,
  streamReplayAnswer,
  syncAnswer,
  takeSlotForCall,
  takeStart,
  throttledError,
  withDeclaredFields,
} from '../runs/index.js';
import { MAX_PRIORITY, MIN_PRIORITY } from '../workflow/index.js';
import type { Principal } from '../services/api-keys.js';
import type { AppContext } from '../services/app-context.js';
import { checkFileInputs, storeFileInputs, type UserFile } from '../services/files/index.js';
import { createChunkRouter, defaultSelection, parseSelectedOutputs, type OutputSelection, type StreamRecord } from './output-selection.js';

export type ApiCallMode = 'sync' | 'stream' | 'async';

export interface ApiCallRequest {
  principal: Principal;
  workflowId: string;
  /** `X-Execution-Mode: async`. */
  async: boolean;
  /** The body, read by the caller under the request size limit: parsed, and its exact bytes. */
  readBody(): Promise<{ value: unknown; bytes: Uint8Array }>;
  idempotencyKey?: string;
  /** `X-Execution-Priority`, as sent. */
  priority?: string;
  origin?: RunOrigin;
}

export type ApiCall =
  /** The Idempotency-Key was answered before: send this again. */
  | { mode: 'replay'; answer: StoredResponse; headers: Record<string, string> }
  | { mode: ApiCallMode; run: PreparedRun; selection?: OutputSelection; idempotencyKey?: string; streamEvents?: boolean };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseControlKeys(body: Record<string, unknown>) {
  const { stream: streamFlag, selectedOutputs, streamEvents, ...rest } = body;
  const problems: Array<{ path: string; message: string }> = [];
  if (streamFlag !== undefined && typeof streamFlag !== 'boolean') problems.push({ path: 'stream', message: 'must be a boolean' });
  if (streamEvents !== undefined && typeof streamEvents !== 'boolean') problems.push({ path: 'streamEvents', message: 'must be a boolean' });
  const selectedOk =
    selectedOutputs === undefined ||
    (Array.isArray(selectedOutputs) && selectedOutputs.length <= 100 && selectedOutputs.every((s) => typeof s === 'string' && s.length <= 300));
  if (!selectedOk) problems.push({ path: 'selectedOutputs', message: 'must be an array of "blockName.attribute" strings' });
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', 400, 'Invalid control keys', problems);
  return { stream: streamFlag === true, streamEvents: streamEvents === true, selectedOutputs: selectedOutputs as string[] | undefined, rest };
}

/** `X-Execution-Priority`: a whole number in -100…100, or 400 naming the header. */
function parsePriority(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = /^\s*[-+]?\d{1,4}\s*$/.test(header) ? Number(header) : NaN;
  if (!Number.isInteger(value) || value < MIN_PRIORITY || value > MAX_PRIORITY) {
    throw new AppError('VALIDATION_ERROR', 400, 'Invalid X-Execution-Priority', [
      { path: 'X-Execution-Priority', message: `must be a whole number from ${MIN_PRIORITY} to ${MAX_PRIORITY}` },
    ]);
  }
  return value;
}

/** Everything the call needs before it runs; throws the AppError that refuses it. */
export async function prepareApiCall(app: AppContext, request: ApiCallRequest): Promise<ApiCall> {
  const deployed = await loadDeployedWorkflow(app, request.workflowId);
  if (!deployed) throw notFound('Workflow');
  if (!(await canRunInWorkspace(app, request.principal, deployed.workflow.workspaceId))) {
    throw forbidden('This API key has no access to the workspace of that workflow');
  }
  const target = activeDeployment(deployed, 'call it through the API');
  const priority = parsePriority(request.priority);
  // Limits follow the workspace owner's plan, counted per owner across every process.
  const { headers } = await admitRun(app, target.owner, { rateBucket: request.async ? 'async' : 'sync' });

  const { value: body, bytes } = await request.readBody();
  if (!isPlainObject(body)) throw new AppError('INVALID_JSON', 400, 'The request body must be a JSON object');
  const control = parseControlKeys(body);
  const fields = inputFormatOf(findApiTrigger(target.state));
  const problems = checkApiInput(fields, control.rest);
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', 400, 'The request body does not match the Input Format', problems);
  const mode: ApiCallMode = request.async ? 'async' : control.stream ? 'stream' : 'sync';
  if (mode !== 'async' && target.state.flowControl?.debounce) {
    app.metrics.flowRefused(target.workflow.id, 'DEBOUNCED');
    throw debouncedSyncCall();
  }
  // Checked now so an unknown block is a 400 before any stream starts.
  const selection = control.selectedOutputs
    ? parseSelectedOutputs(target.state, control.selectedOutputs)
    : mode === 'stream'
      ? defaultSelection(target.state)
      : undefined;
  const input = withDeclaredFields(fields, control.rest);
  const fileFields = fields.filter((f) => f.type === 'files' && input[f.name] !== null);
  // Every files field is checked before any is stored (or a key claimed), so a bad later field leaves nothing behind.
  for (const field of fileFields) checkFileInputs(field.name, input[field.name], app.files.maxFileBytes);

  const executionId = newExecutionId();
  const key = request.idempotencyKey;
  if (key !== undefined) {
    checkIdempotencyKey(key);
    const claim = await claimIdempotencyKey(app.db, {
      workflowId: target.workflow.id,
      key,
      executionId,
      requestHash: requestHash(mode, bytes),
      abandonedAfterMs: app.config.executionTimeoutMs + 60_000,
    });
    if (claim.kind === 'replay') return { mode: 'replay', answer: claim.response, headers };
  }

  // Flow control (runs/flow-slots.ts): a sync or streaming call takes its slot now (before any stream starts, so a
  // refusal is plain JSON); an async one is refused or noted as waiting, and takes its slot when a worker starts it.
  // Then the throttle (runs/flow-throttle.ts): a sync or streaming call that holds its slot takes a start or is
  // refused (429 THROTTLED); an async one takes its start when a worker starts it.
  const flow = runFlowOf(target.workflow.id, target.state, input);
  const throttle = runThrottleOf(target.workflow.id, target.state, input);
  const requester = { userId: request.principal.userId, keyWorkspaceId: request.principal.keyWorkspaceId };
  let flowWait: FlowWait | undefined;
  let flowWaits = false;
  let throttleStartedAt: Date | undefined;
  try {
    if (flow) {
      if (mode === 'async') flowWaits = (await admitQueuedRun(app, flow, requester)).waits;
      else flowWait = await takeSlotForCall(app, flow, executionId, requester);
    }
    if (throttle && mode !== 'async') {
      const start = await takeStart(app.db, throttle, executionId);
      if (!start.taken) {
        if (flowWait) await freeSlot(app.db, executionId);
        app.metrics.flowRefused(target.workflow.id, 'THROTTLED');
        throw throttledError(throttle, start.freeAt);
      }
      throttleStartedAt = new Date(start.at);
    }
  } catch (err) {
    if (key !== undefined) await releaseIdempotencyKey(app.db, { workflowId: target.workflow.id, key });
    throw err;
  }
  const debounce = mode === 'async' ? debounceOf(target.workflow.id, target.state, input) : undefined;

  let files: UserFile[];
  try {
    files = [];
    for (const field of fileFields) {
      const stored = await storeFileInputs(app, {
        workspaceId: target.workflow.workspaceId,
        fieldName: field.name,
        value: input[field.name],
        executionId,
      });
      input[field.name] = stored;
      files.push(...stored);
    }
  } catch (err) {
    if (key !== undefined) await releaseIdempotencyKey(app.db, { workflowId: target.workflow.id, key });
    if (flowWait) await freeSlot(app.db, executionId);
    throw err;
  }
  const run = prepareRun({
    target,
    trigger: 'api',
    input,
    files,
    executionId,
    admissionHeaders: headers,
    origin: request.origin,
    ...(flow ? { flow, flowWaits } : {}),
    ...(flowWait ? { flowWait } : {}),
    ...(priority !== undefined ? { priority } : {}),
    ...(throttle ? { throttle } : {}),
    ...(throttleStartedAt ? { throttleStartedAt } : {}),
    ...(debounce ? { debounce } : {}),
  });
  return { mode, run, selection, idempotencyKey: key, ...(mode === 'stream' && control.streamEvents ? { streamEvents: true } : {}) };
}

/** Runs a plain or streaming call; `onChunk` receives the selected outputs of a streaming one. */
export function runApiCall(
  app: AppContext,
  call: Extract<ApiCall, { run: PreparedRun }>,
  options: { signal?: AbortSignal; onChunk?: (record: StreamRecord) => void },
): Promise<ExecutionOutcome> {
  const answer = call.mode === 'stream' ? streamReplayAnswer : (outcome: ExecutionOutcome) => syncAnswer(outcome);
  return runPrepared(app, call.run, {
    signal: options.signal,
    onEvent:
      call.selection && options.onChunk ? createChunkRouter(call.selection, options.onChunk, { events: call.streamEvents === true }) : undefined,
    idempotency: call.idempotencyKey === undefined ? undefined : { key: call.idempotencyKey, answer },
  });
}

export interface AsyncAccepted extends StoredResponse {
  status: 202;
}

/** The 202 of an async call (docs/api.md 4.6); taskId and jobId name the same job (jobId is kept for older clients). */
export function acceptedAnswer(app: AppContext, queued: QueuedExecution): AsyncAccepted {
  const statusPath = `/api/jobs/${queued.taskId}`;
  return {
    status: 202,
    headers: { [EXECUTION_ID_HEADER]: queued.executionId },
    body: {
      success: true,
      async: true,
      taskId: queued.taskId,
      jobId: queued.taskId,
      executionId: queued.executionId,
      status: 'queued',
      createdAt: queued.createdAt,
      links: { status: statusPath },
      statusUrl: `${app.config.baseUrl}${statusPath}`,
    },
  };
}

/** Queues an async call; its answer is what a repeat with the same Idempotency-Key gets. */
export async function enqueueApiCall(app: AppContext, call: Extract<ApiCall, { run: PreparedRun }>): Promise<AsyncAccepted> {
  const answer = acceptedAnswer(app, await enqueuePrepared(app, call.run));
  if (call.idempotencyKey !== undefined) {
    await completeIdempotencyKey(app.db, { workflowId: call.run.target.workflow.id, key: call.idempotencyKey, response: answer });
  }
  return answer;
}
