// `GET /api/v1/logs`: one page of a workspace's logs in keyset order (startedAt, id), with the next cursor.
import { and, asc, desc, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import { executions, workflows } from '../../db/schema.js';
import { toFullCost, type FullCost } from '../cost.js';
import type { FileStorage } from '../files/storage.js';
import { encodeCursor, type LogOrder, type LogPosition } from './cursor.js';
import { beyond, keysetOrder, logFilters, startedBefore } from './filters.js';
import { visibilityHorizon } from './horizon.js';
import { pageColumns } from './columns.js';
import { modelWindowQuery, nextWindowSize, readWindow, walksModelWindow, WINDOW_ROWS } from './model-window.js';
import { restoreFinalOutput, restoreValues } from './offloaded-values.js';
import type { LogsQuery } from './params.js';
import { toExecutionData, toLogEntry, type ExecutionData, type LogEntry, type WorkflowSummary } from './views.js';

/** A list item: the log entry (docs/api.md 6.1), plus what `details=full` and the include flags add. */
export interface LogListItem extends Omit<LogEntry, 'cost'> {
  cost: { total: number } | FullCost;
  workflow?: WorkflowSummary;
  executionData?: ExecutionData;
}

export interface LogPage {
  data: LogListItem[];
  nextCursor: string | null;
}

/**
 * `primary`: set when `db` is a read replica (DATABASE_READ_URL), for the horizon to check the replica's lag. `logger`
 * hears of values missing or damaged in file storage (offloaded-values.ts).
 */
export async function listLogs(
  db: Db,
  config: Pick<Config, 'executionTimeoutMs'>,
  q: LogsQuery,
  storage: FileStorage,
  primary?: Db,
  logger?: Logger,
): Promise<LogPage> {
  // See horizon.ts: an ascending walk stops before the earliest run still in flight, so it never has to go back.
  const horizon = q.order === 'asc' ? await visibilityHorizon(db, config, q, primary) : null;
  const rows = await pageRows(db, q, horizon);
  const full = q.details === 'full';
  const page = rows.slice(0, q.limit);
  const summaries = full ? await workflowSummaries(db, page.map((row) => row.workflowId)) : new Map<string, WorkflowSummary>();
  const includeData = q.includeTraceSpans || q.includeFinalOutput;
  // Values kept in file storage (offloaded-values.ts) are fetched back, so the page reads as if they were inline.
  const values = includeData ? await Promise.all(page.map((row) => restoredValues(storage, row, q, logger))) : [];
  const data = page.map((row, i): LogListItem => {
    const item: LogListItem = toLogEntry(row);
    if (full) {
      item.workflow = summaries.get(row.workflowId);
      item.cost = toFullCost(row.costTotal, row.cost);
    }
    if (includeData) {
      item.executionData = toExecutionData(values[i], { traceSpans: q.includeTraceSpans, finalOutput: q.includeFinalOutput });
    }
    return item;
  });

  const last = page.at(-1);
  return { data, nextCursor: last && hasMore(q, rows.length, horizon) ? encodeCursor(q.order, position(last)) : null };
}

async function restoredValues(storage: FileStorage, row: { traceSpans: unknown; finalOutput: unknown }, q: LogsQuery, logger?: Logger) {
  if (q.includeTraceSpans) return restoreValues(storage, row, { logger });
  return { traceSpans: null, finalOutput: await restoreFinalOutput(storage, row, logger) };
}

/**
 * Whether a client should ask again after this page. Descending walks, and ascending walks whose endDate lies
 * before the horizon, cover a range that can no longer grow: the page after the last full one is the end. An
 * open ascending walk is how a poller follows new logs, so it always gets a cursor to resume from after a
 * non-empty page — an empty page (null) means "nothing new yet, keep the cursor you have".
 */
function hasMore(q: LogsQuery, fetched: number, horizon: Date | null): boolean {
  if (fetched > q.limit) return true;
  const open = horizon !== null && (!q.endDate || q.endDate >= horizon);
  return open;
}

/** One page's rows (limit + 1 at most): through the model windows when they apply (model-window.ts). */
async function pageRows(db: Db, q: LogsQuery, horizon: Date | null) {
  if (!walksModelWindow(q)) return logsPageQuery(db, q, horizon);
  const wanted = q.limit + 1;
  const hits: Awaited<ReturnType<typeof logsPageQuery>> = [];
  let from: LogPosition = q.cursor!;
  let size: number | null = WINDOW_ROWS;
  let walked = 0;
  for (let round = 0; round < 2 && size !== null; round++) {
    const window = readWindow(await modelWindowQuery(db, { ...q, cursor: { ...from, order: q.order } }, horizon, size), size);
    hits.push(...window.hits);
    if (hits.length >= wanted || !window.next) return hits.slice(0, wanted);
    walked += size;
    from = window.next;
    size = round === 0 ? nextWindowSize(wanted - hits.length, hits.length, walked) : null;
  }
  // Sparse here: the ordinary query answers the rest of the page, from where the windows stopped.
  const rest = await logsPageQuery(db, { ...q, cursor: { ...from, order: q.order }, limit: wanted - hits.length - 1 }, horizon);
  return [...hits, ...rest];
}

/** The SQL of one page (limit + 1 rows: one more than asked tells whether another page exists, without a count). */
export function logsPageQuery(db: Db, q: LogsQuery, horizon: Date | null) {
  const where = logFilters(q);
  if (q.cursor) where.push(beyond(q.order, q.cursor));
  if (horizon) where.push(startedBefore(horizon));
  return db
    .select(pageColumns(q))
    .from(executions)
    .where(and(...where))
    .orderBy(...keysetOrder(q.order))
    .limit(q.limit + 1);
}

const position = (row: { startedAt: Date; id: string }): LogPosition => ({ startedAt: row.startedAt, id: row.id });

async function workflowSummaries(db: Db, ids: string[]): Promise<Map<string, WorkflowSummary>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: workflows.id, name: workflows.name, description: workflows.description })
    .from(workflows)
    .where(inArray(workflows.id, unique));
  return new Map(rows.map((row) => [row.id, row]));
}
