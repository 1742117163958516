// Running workflows: synchronously, streamed chunk by chunk, or queued on a worker and waited for. A run that fails
// throws SluiceError EXECUTION_FAILED with its execution id, whichever the mode.
import type { Api, RequestOptions } from './api.js';
import { errorFromResponse, SluiceError } from './errors.js';
import { sleep } from './sleep.js';
import { sseData } from './sse.js';
import type {
  CancelAnswer,
  ExecuteAccepted,
  ExecuteInput,
  ExecuteResult,
  ExecutionPaused,
  JobStatus,
  PausedRun,
  RerunAccepted,
  RerunBatchAccepted,
  RerunBatchFilter,
  RerunBatchProgress,
  RerunPreview,
  ResumeDecision,
  StreamChunk,
  StreamDone,
} from './types.js';

export interface ExecuteOptions extends RequestOptions {
  /** Replays the first answer for 24 h instead of running again (README "Idempotency"). */
  idempotencyKey?: string;
}

export interface StreamOptions extends ExecuteOptions {
  /** `blockName.attribute` items whose output streams (names case-insensitive, spaces ignored). */
  selectedOutputs?: string[];
}

/** The answer of a synchronous run. */
export interface ExecutionResponse {
  executionId: string;
  /** 200, or the status a response block chose. */
  status: number;
  headers: Headers;
  /** The parsed JSON body (text when the answer is not JSON). */
  body: unknown;
  /** The default answer `{success, executionId, output, metadata}`; null when a response block shaped the answer. */
  result: ExecuteResult | null;
  /** True when an Idempotency-Key replayed an earlier answer. */
  replayed: boolean;
  /** Set when the run paused at an approval block (202): resume it with resumeExecution. */
  paused: ExecutionPaused | null;
}

/** A streamed run: iterate it for the chunks as they are produced; `done` is the final record. */
export interface WorkflowStream extends AsyncIterable<StreamChunk> {
  /** Resolves with the final record of a successful run; rejects with a SluiceError (EXECUTION_FAILED for a failed run). */
  readonly done: Promise<StreamDone>;
  readonly executionId: Promise<string>;
  /** Stops reading; the server cancels the run. */
  abort(): void;
}

/** A re-run (README "Re-running a run"): the whole run again, or from a block with the blocks before it replayed. */
export interface RerunOptions extends RequestOptions {
  /** Block id or name to run from; without it the whole workflow runs again. */
  fromBlock?: string;
  /** Trigger input instead of the original's. */
  input?: ExecuteInput;
  /** `original` (default): the version that ran; `active`: the active deployment. */
  deployment?: 'original' | 'active';
}

/** A bulk re-run (README "Re-running a run"): the executions of a workspace that the logs filters select, queued. */
export interface RerunBatchOptions extends RequestOptions {
  /** The filters of listLogs / GET /api/v1/logs (e.g. { level: 'error', startDate }). */
  filter?: RerunBatchFilter;
  /** Only failed runs, each retried from the block that failed. */
  fromFailedBlock?: boolean;
  /** At most this many (1–1000, default 100), newest first. */
  limit?: number;
  /** A repeat with the same key and body answers the same batch instead of queuing another. */
  idempotencyKey?: string;
}

export interface WaitOptions extends RequestOptions {
  /** Longest pause between status checks (they start at 250 ms and grow). Default 2000. */
  intervalMs?: number;
  /** Give up (SluiceError TIMEOUT) after this long. Default: wait as long as it takes. */
  timeoutMs?: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseBody(text: string, response: Response): unknown {
  if (!/json/i.test(response.headers.get('content-type') ?? '')) return text;
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return text;
  }
}

/** Platform failures of a run, as opposed to a response block that chose an error status. */
const RUN_FAILURES = new Set(['EXECUTION_FAILED', 'EXECUTION_TIMEOUT']);

function runFailed(message: string, executionId: string | undefined, body: unknown, status = 500): SluiceError {
  return new SluiceError({ status, code: 'EXECUTION_FAILED', message, executionId, body });
}

export function runCalls({ api, answer }: Api) {
  async function send(workflowId: string, body: Record<string, unknown>, headers: Record<string, string>, signal?: AbortSignal) {
    const { response, data, error } = await api.POST('/api/workflows/{workflowId}/execute', {
      params: { path: { workflowId } },
      body,
      headers,
      signal,
      parseAs: 'text',
    });
    return { response, text: typeof data === 'string' ? data : undefined, error };
  }

  const idempotency = (key?: string): Record<string, string> => (key === undefined ? {} : { 'Idempotency-Key': key });

  async function executeWorkflow(workflowId: string, input: ExecuteInput = {}, opts: ExecuteOptions = {}): Promise<ExecutionResponse> {
    return executionResponse(await send(workflowId, { ...input }, idempotency(opts.idempotencyKey), opts.signal));
  }

  /** What a run answered (an execute call's, or a re-run's): a failed or timed-out run throws. */
  function executionResponse({ response, text, error }: { response: Response; text: string | undefined; error: unknown }): ExecutionResponse {
    const executionId = response.headers.get('x-execution-id');
    const body = text === undefined ? error : parseBody(text, response);
    if (!executionId) throw errorFromResponse(response, body);
    // A failed or timed-out run throws; a response block's own error status is an answer like any other.
    if (!response.ok && isRecord(body) && typeof body.code === 'string' && RUN_FAILURES.has(body.code)) {
      throw errorFromResponse(response, body);
    }
    const isDefault =
      response.status === 200 && isRecord(body) && body.success === true && body.executionId === executionId && 'metadata' in body;
    return {
      executionId,
      status: response.status,
      headers: response.headers,
      body,
      result: isDefault ? (body as ExecuteResult) : null,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      paused: response.status === 202 && isRecord(body) && body.status === 'paused' ? (body as ExecutionPaused) : null,
    };
  }

  function streamWorkflow(workflowId: string, input: ExecuteInput = {}, opts: StreamOptions = {}): WorkflowStream {
    const controller = new AbortController();
    opts.signal?.addEventListener('abort', () => controller.abort(opts.signal!.reason), { once: true });
    const body = { ...input, stream: true, ...(opts.selectedOutputs ? { selectedOutputs: opts.selectedOutputs } : {}) };
    const started = (async () => {
      const { response, error } = await api.POST('/api/workflows/{workflowId}/execute', {
        params: { path: { workflowId } },
        body,
        headers: idempotency(opts.idempotencyKey),
        signal: controller.signal,
        parseAs: 'stream',
      });
      if (!response.ok || !response.body) throw errorFromResponse(response, error);
      return response;
    })();
    let settle!: { resolve(done: StreamDone): void; reject(err: unknown): void };
    const done = new Promise<StreamDone>((resolve, reject) => (settle = { resolve, reject }));
    const executionId = started.then((response) => response.headers.get('x-execution-id') ?? '');
    // Whoever does not look at them must not get unhandled rejections.
    done.catch(() => undefined);
    executionId.catch(() => undefined);

    async function* chunks(): AsyncGenerator<StreamChunk> {
      let final: StreamDone | undefined;
      try {
        const response = await started;
        for await (const data of sseData(response.body!)) {
          if (data === '[DONE]') break;
          const record = JSON.parse(data) as unknown;
          if (isRecord(record) && record.event === 'done') final = record as StreamDone;
          else if (isRecord(record) && typeof record.chunk === 'string') yield record as StreamChunk;
        }
        const id = await executionId;
        if (!final) throw new SluiceError({ status: 0, code: 'STREAM_INCOMPLETE', message: 'The event stream ended before its final record', executionId: id });
        if (!final.success) throw runFailed(final.error ?? 'The workflow failed', id, final);
        settle.resolve(final);
      } catch (err) {
        const error =
          err instanceof SluiceError
            ? err
            : new SluiceError({ status: 0, code: 'NETWORK_ERROR', message: `The event stream broke: ${err instanceof Error ? err.message : String(err)}`, cause: err });
        settle.reject(error);
        throw error;
      } finally {
        // Left early (break, abort): nothing more will be read, so the run is cancelled with the connection.
        if (!final) {
          settle.reject(new SluiceError({ status: 0, code: 'ABORTED', message: 'Stopped reading the stream before it ended' }));
          controller.abort();
        }
      }
    }

    const generator = chunks();
    let consumed = false;
    const take = () => {
      if (consumed) throw new Error('A WorkflowStream can be read once');
      consumed = true;
      return generator;
    };
    return {
      [Symbol.asyncIterator]: take,
      get done() {
        if (!consumed) {
          // Only the final record is wanted: read the chunks and drop them.
          void (async () => {
            for await (const _chunk of take());
          })().catch(() => undefined);
        }
        return done;
      },
      executionId,
      abort: () => controller.abort(),
    };
  }

  async function executeWorkflowAsync(workflowId: string, input: ExecuteInput = {}, opts: ExecuteOptions = {}): Promise<ExecuteAccepted> {
    const { response, error, data } = await api.POST('/api/workflows/{workflowId}/execute', {
      params: { path: { workflowId } },
      body: { ...input },
      headers: { 'X-Execution-Mode': 'async', ...idempotency(opts.idempotencyKey) },
      signal: opts.signal,
    });
    if (response.status !== 202) throw errorFromResponse(response, error ?? data);
    return data as unknown as ExecuteAccepted;
  }

  const getJob = (taskId: string, opts: RequestOptions = {}): Promise<JobStatus> =>
    answer(api.GET('/api/jobs/{taskId}', { params: { path: { taskId } }, signal: opts.signal }));

  async function waitForJob(taskId: string, opts: WaitOptions = {}): Promise<JobStatus> {
    const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
    let pause = 250;
    for (;;) {
      const job = await getJob(taskId, opts);
      if (job.status === 'completed') return job;
      if (job.status === 'failed') throw runFailed(job.error ?? 'The workflow failed', job.metadata.executionId, job);
      if (job.status === 'cancelled') {
        throw new SluiceError({ status: 409, code: 'EXECUTION_CANCELLED', message: job.error ?? 'Execution cancelled', executionId: job.metadata.executionId, body: job });
      }
      // A paused run is waited for like a running one: it goes on once someone decides.
      if (Date.now() + pause > deadline) {
        throw new SluiceError({ status: 0, code: 'TIMEOUT', message: `Task ${taskId} was still ${job.status} after ${opts.timeoutMs} ms`, executionId: job.metadata.executionId, body: job });
      }
      await sleep(pause, opts.signal);
      pause = Math.min(Math.round(pause * 1.5), opts.intervalMs ?? 2000);
    }
  }

  /** Stops a queued, running or paused execution wherever it runs; `cancelling` when it had not stopped yet. */
  const cancelExecution = async (executionId: string, opts: RequestOptions = {}): Promise<CancelAnswer> =>
    (await answer(api.POST('/api/v1/executions/{executionId}/cancel', { params: { path: { executionId } }, signal: opts.signal }))).data;

  /** Decides the approval a paused run waits for; a worker carries the run on (its log tells the outcome). */
  const resumeExecution = async (executionId: string, decision: ResumeDecision, opts: RequestOptions = {}) =>
    (await answer(api.POST('/api/v1/executions/{executionId}/resume', { params: { path: { executionId } }, body: decision, signal: opts.signal }))).data;

  /** The runs of a workspace waiting for an approval. */
  const listPausedRuns = async (workspaceId: string, opts: RequestOptions = {}): Promise<PausedRun[]> =>
    (await answer(api.GET('/api/v1/executions', { params: { query: { workspaceId, status: 'paused' } }, signal: opts.signal }))).data;

  const rerunBody = (opts: RerunOptions, extra: Record<string, unknown> = {}) => ({
    ...(opts.fromBlock === undefined ? {} : { fromBlock: opts.fromBlock }),
    ...(opts.input === undefined ? {} : { input: opts.input }),
    ...(opts.deployment === undefined ? {} : { deployment: opts.deployment }),
    ...extra,
  });

  async function postRerun(executionId: string, retry: boolean, body: Record<string, unknown>, signal?: AbortSignal, parseAs: 'text' | 'json' = 'text') {
    const params = { params: { path: { executionId } }, body, signal, parseAs } as const;
    return retry
      ? api.POST('/api/v1/executions/{executionId}/retry', params)
      : api.POST('/api/v1/executions/{executionId}/rerun', params);
  }

  /**
   * Runs a finished execution again and waits for it: whole, or from `fromBlock` with the blocks before it replayed
   * from the original's log (no calls, no cost). A failed re-run throws EXECUTION_FAILED, like executeWorkflow.
   */
  async function rerunExecution(executionId: string, opts: RerunOptions = {}): Promise<ExecutionResponse> {
    const { response, data, error } = await postRerun(executionId, false, rerunBody(opts), opts.signal);
    return executionResponse({ response, text: typeof data === 'string' ? data : undefined, error });
  }

  /** Re-runs a failed execution from the first block that failed (409 EXECUTION_NOT_FAILED when it did not fail). */
  async function retryExecution(executionId: string, opts: Omit<RerunOptions, 'fromBlock'> = {}): Promise<ExecutionResponse> {
    const { response, data, error } = await postRerun(executionId, true, rerunBody(opts), opts.signal);
    return executionResponse({ response, text: typeof data === 'string' ? data : undefined, error });
  }

  /** Queues a re-run (or with `retry`, a retry) on a worker; wait for it with waitForJob. */
  async function rerunExecutionAsync(executionId: string, opts: RerunOptions & { retry?: boolean } = {}): Promise<RerunAccepted> {
    const { response, data, error } = await postRerun(executionId, opts.retry === true, rerunBody(opts, { mode: 'async' }), opts.signal, 'json');
    const body: unknown = data;
    if (response.status !== 202 || !isRecord(body) || typeof body.taskId !== 'string') throw errorFromResponse(response, error ?? body);
    return body as RerunAccepted;
  }

  /** What a re-run would replay and what it would run again (with side effects), without running anything. */
  async function previewRerun(executionId: string, opts: RerunOptions & { retry?: boolean } = {}): Promise<RerunPreview> {
    const { response, data, error } = await postRerun(executionId, opts.retry === true, rerunBody(opts, { dryRun: true }), opts.signal, 'json');
    if (!response.ok) throw errorFromResponse(response, error);
    return data as RerunPreview;
  }

  /** Queues a re-run of every execution the filter selects (each once); follow it with getRerunBatch. */
  async function rerunBatch(workspaceId: string, opts: RerunBatchOptions = {}): Promise<RerunBatchAccepted> {
    const body = {
      workspaceId,
      ...(opts.filter === undefined ? {} : { filter: opts.filter }),
      ...(opts.fromFailedBlock === undefined ? {} : { fromFailedBlock: opts.fromFailedBlock }),
      ...(opts.limit === undefined ? {} : { limit: opts.limit }),
    };
    const headers = opts.idempotencyKey === undefined ? {} : { 'Idempotency-Key': opts.idempotencyKey };
    return (await answer(api.POST('/api/v1/executions/rerun', { body, headers, signal: opts.signal }))).data;
  }

  /** Where each re-run of a bulk re-run stands. */
  const getRerunBatch = async (batchId: string, opts: RequestOptions = {}): Promise<RerunBatchProgress> =>
    (await answer(api.GET('/api/v1/executions/rerun/{batchId}', { params: { path: { batchId } }, signal: opts.signal }))).data;

  /** Polls a bulk re-run until every re-run has finished (or was skipped); `onProgress` sees each reading. */
  async function waitForRerunBatch(
    batchId: string,
    opts: WaitOptions & { onProgress?: (progress: RerunBatchProgress) => void } = {},
  ): Promise<RerunBatchProgress> {
    const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
    let pause = 250;
    for (;;) {
      const progress = await getRerunBatch(batchId, opts);
      opts.onProgress?.(progress);
      if (progress.done) return progress;
      if (Date.now() + pause > deadline) {
        throw new SluiceError({ status: 0, code: 'TIMEOUT', message: `Re-run batch ${batchId} had not finished after ${opts.timeoutMs} ms` });
      }
      await sleep(pause, opts.signal);
      pause = Math.min(pause * 2, opts.intervalMs ?? 2000);
    }
  }

  return {
    rerunBatch,
    getRerunBatch,
    waitForRerunBatch,
    executeWorkflow,
    streamWorkflow,
    executeWorkflowAsync,
    getJob,
    waitForJob,
    cancelExecution,
    resumeExecution,
    listPausedRuns,
    rerunExecution,
    retryExecution,
    rerunExecutionAsync,
    previewRerun,
  };
}
