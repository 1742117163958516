// A keyset page filtered by model walks windows of the workspace's next rows before it lets the planner choose.
//
// The `models` GIN index is what a rare model needs (without it a page walks the workspace's whole range), but on
// the last pages of a common model the planner ANDs the short keyset range with it: the bitmap holds every row of the
// month that used the model (~70,000 at 1M logs), costs 15–25 ms to build, and is costed as nearly free, where
// walking the (workspace_id, started_at, id) index with the model as a filter reads ~1,500 rows in ~1.5 ms
// (bench/REPORT-logs.md). So the page first walks WINDOW_ROWS rows past the cursor in that order, testing the
// filters on each, and answers from them when they hold a full page or end the range. When they hold some matches,
// the density seen says how far the rest of the page lies: one more window walks that far if it is within
// MAX_WINDOW_ROWS. Otherwise (no match, or too far) the model is sparse here and the ordinary, GIN-eligible query
// answers from where the windows stopped. Whether a model is common is a property of this workspace and this range,
// which the windows measure directly; planner statistics only know the model's share of the whole table.
import { and, asc, desc, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { executions } from '../../db/schema.js';
import { pageColumns } from './columns.js';
import { beyond, completedOnly, keysetOrder, knownAtCompletionFilters, knownAtStartFilters, startedBefore } from './filters.js';
import type { LogPosition } from './cursor.js';
import type { LogsQuery } from './params.js';

/** A model in 5% of the workspace's rows fills a page of 100 within it; walking it costs ~2–4 ms. */
export const WINDOW_ROWS = 2000;
/** The largest second window: past it, the GIN bitmap (the model's rows in the month) is the cheaper bet. */
export const MAX_WINDOW_ROWS = 8000;

/**
 * Pages that try the window: keyset-bounded (a first page's range is the whole workspace, where the planner's own
 * choice is right) and filtered by model alone among what completion records. With a level, duration, cost or
 * block-error filter as well the combination is seldom dense enough to fill a page within the window, and the GIN
 * index ANDed with the other filter's index is the plan that serves it.
 */
export function walksModelWindow(q: LogsQuery): boolean {
  return q.cursor !== undefined && q.model !== undefined && knownAtCompletionFilters(q).length === 1;
}

/**
 * The window's rows that match (`hit`), in keyset order, plus its last row whatever it is (`n` = size), which
 * tells that the range goes on past the window and where the next window starts.
 */
export function modelWindowQuery(db: Db, q: LogsQuery, horizon: Date | null, size = WINDOW_ROWS) {
  const where = [...knownAtStartFilters(q), beyond(q.order, q.cursor!)];
  if (horizon) where.push(startedBefore(horizon));
  const direction = q.order === 'asc' ? sql`asc` : sql`desc`;
  const window = db
    .select({
      ...pageColumns(q),
      // The filters as a value, not a condition: nothing for the planner to match to an index.
      hit: sql<boolean | null>`${and(completedOnly, ...knownAtCompletionFilters(q))}`.as('hit'),
      n: sql<number | string>`row_number() over (order by ${executions.startedAt} ${direction}, ${executions.id} ${direction})`.as('n'),
    })
    .from(executions)
    .where(and(...where))
    .orderBy(...keysetOrder(q.order))
    .limit(size)
    .as('window');
  const order = q.order === 'asc' ? [asc(window.startedAt), asc(window.id)] : [desc(window.startedAt), desc(window.id)];
  // One more than a page of hits tells whether another page exists; one more again leaves room for the last row.
  return db
    .select()
    .from(window)
    .where(sql`${window.hit} or ${window.n} = ${size}`)
    .orderBy(...order)
    .limit(q.limit + 2);
}

export interface WindowRead<Row> {
  hits: Row[];
  /** The window's last row when the range goes on past it; null when the window reached the end of the range. */
  next: LogPosition | null;
}

export function readWindow<Row extends LogPosition>(rows: Array<Row & { hit: boolean | null; n: number | string }>, size: number): WindowRead<Row> {
  const last = rows.find((row) => Number(row.n) === size);
  return {
    hits: rows.filter((row) => row.hit === true).map(({ hit: _hit, n: _n, ...row }) => row as unknown as Row),
    next: last ? { startedAt: last.startedAt, id: last.id } : null,
  };
}

/** The size of the second window: enough rows, at the density the first one saw, for the rest of the page (× 1.5). */
export function nextWindowSize(missing: number, hitsSeen: number, rowsWalked: number): number | null {
  if (hitsSeen === 0) return null;
  const size = Math.ceil(((missing * rowsWalked) / hitsSeen) * 1.5);
  return size <= MAX_WINDOW_ROWS ? Math.max(size, 100) : null;
}
