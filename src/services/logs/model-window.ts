// A keyset page filtered by model walks a window of the workspace's next rows before it lets the planner choose.
//
// The `models` GIN index is what a rare model needs (without it a page walks the workspace's whole range), but on
// the last pages of a common model the planner ANDs the short keyset range with it: the bitmap holds every row of the
// month that used the model (~70,000 at 1M logs), costs 15–25 ms to build, and is costed as nearly free, where
// walking the (workspace_id, started_at, id) index with the model as a filter reads ~1,500 rows in ~1.5 ms
// (bench/REPORT-logs.md). So the page first walks at most WINDOW_ROWS rows past the cursor in that order, testing
// the filters on each; it is the page when the window holds a full page of matches or reaches the end of the range.
// Otherwise the model is sparse here and the ordinary query (GIN-eligible) answers, after ~2 ms spent on the window.
// Whether a model is common is a property of this workspace and this range, which the window measures directly.
import { and, asc, desc, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { executions } from '../../db/schema.js';
import { pageColumns } from './columns.js';
import { beyond, completedOnly, knownAtCompletionFilters, knownAtStartFilters, startedBefore } from './filters.js';
import type { LogsQuery } from './params.js';

/** A model at 5% of the workspace's rows fills a page of 100 within it; scanning it costs ~1.5–2 ms. */
export const WINDOW_ROWS = 2000;

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
 * The window's rows that match (`hit`), in keyset order, plus its last row whatever it is (`n` = WINDOW_ROWS), which
 * tells that the range goes on past the window.
 */
export function modelWindowQuery(db: Db, q: LogsQuery, horizon: Date | null) {
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
    .orderBy(...(q.order === 'asc' ? [asc(executions.startedAt), asc(executions.id)] : [desc(executions.startedAt), desc(executions.id)]))
    .limit(WINDOW_ROWS)
    .as('window');
  const order = q.order === 'asc' ? [asc(window.startedAt), asc(window.id)] : [desc(window.startedAt), desc(window.id)];
  // One more than a page of hits tells whether another page exists; one more again leaves room for the last row.
  return db
    .select()
    .from(window)
    .where(sql`${window.hit} or ${window.n} = ${WINDOW_ROWS}`)
    .orderBy(...order)
    .limit(q.limit + 2);
}

/** The page's rows (limit + 1 at most) when the window settles the page, or null when the ordinary query must. */
export function pageFromWindow<Row>(q: LogsQuery, rows: Array<Row & { hit: boolean | null; n: number | string }>): Row[] | null {
  const hits = rows.filter((row) => row.hit === true);
  const rangeGoesOn = rows.some((row) => Number(row.n) === WINDOW_ROWS);
  if (hits.length <= q.limit && rangeGoesOn) return null;
  return hits.slice(0, q.limit + 1).map(({ hit: _hit, n: _n, ...row }) => row as Row);
}
