// The logs API: one page or every page of a query, a log's and an execution's detail, and polling for new logs that
// resumes from a saved cursor.
import type { Api, RequestOptions } from './api.js';
import { serializeLogQuery } from './logs-query.js';
import { sleep } from './sleep.js';
import type { ExecutionDetail, LogDetail, LogEntry, LogPage, LogQuery } from './types.js';

/** `await` it for one page; `for await` it for every page, following nextCursor. */
export interface LogPages extends PromiseLike<LogPage>, AsyncIterable<LogPage> {}

export interface PollOptions extends RequestOptions {
  /** Resume after this cursor (from an earlier batch), instead of starting at `since`. */
  cursor?: string | null;
  /** Logs of runs started from this moment on; default now. Ignored when resuming from a cursor. */
  since?: Date | string;
  /** Pause between looks once caught up. Default 6000 (the free plan allows 10 logs requests a minute). */
  intervalMs?: number;
}

/** New logs as they arrive; save `cursor` to resume after them later (pollLogs `cursor` option). */
export interface LogBatch {
  logs: LogEntry[];
  cursor: string;
}

export function logCalls({ api, answer }: Api) {
  const logPage = (query: LogQuery, signal?: AbortSignal): Promise<LogPage> =>
    answer(api.GET('/api/v1/logs', { params: { query: serializeLogQuery(query) }, signal }));

  function listLogs(query: LogQuery, opts: RequestOptions = {}): LogPages {
    let first: Promise<LogPage> | undefined;
    return {
      then(onFulfilled, onRejected) {
        first ??= logPage(query, opts.signal);
        return first.then(onFulfilled, onRejected);
      },
      async *[Symbol.asyncIterator]() {
        let cursor = query.cursor;
        for (;;) {
          const page = await logPage({ ...query, cursor }, opts.signal);
          yield page;
          // Ascending walks always hand back a cursor (to poll with); an empty page is their end.
          if (!page.nextCursor || page.data.length === 0) return;
          cursor = page.nextCursor;
        }
      },
    };
  }

  async function* pollLogs(query: LogQuery, opts: PollOptions = {}): AsyncGenerator<LogBatch> {
    let cursor = opts.cursor ?? undefined;
    const since = cursor ? query.startDate : (opts.since ?? query.startDate ?? new Date());
    const limit = query.limit ?? 100;
    for (;;) {
      const page = await logPage({ ...query, order: 'asc', startDate: since, limit, cursor }, opts.signal);
      if (page.nextCursor) cursor = page.nextCursor;
      if (page.data.length > 0) yield { logs: page.data, cursor: cursor! };
      // A full page means more may be waiting: read on at once; otherwise caught up, so wait.
      if (page.data.length < limit) await sleep(opts.intervalMs ?? 6000, opts.signal);
    }
  }

  return {
    listLogs,
    pollLogs,
    getLog: (logId: string, opts: RequestOptions = {}): Promise<LogDetail> =>
      answer(api.GET('/api/v1/logs/{logId}', { params: { path: { logId } }, signal: opts.signal })).then((r) => r.data),
    getExecution: (executionId: string, opts: RequestOptions = {}): Promise<ExecutionDetail> =>
      answer(api.GET('/api/v1/logs/executions/{executionId}', { params: { path: { executionId } }, signal: opts.signal })),
  };
}
