// The query parameters of `GET /api/v1/logs` (docs/api.md 6.1): one zod schema, so every malformed
// value is a 400 whose details name the parameter. Values arrive as query-string text and are parsed here.
import { z } from 'zod';
import { storableDate, storableString } from '../../db/storable.js';
import { TRIGGER_TYPES } from '../../workflow/index.js';
import { decodeCursor, LOG_ORDERS } from './cursor.js';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
/** More ids than this in one comma list is a mistake, not a filter (and would bloat the SQL). */
export const MAX_LIST_ITEMS = 100;
export const LOG_LEVELS = ['info', 'error'] as const;
export const LOG_DETAILS = ['basic', 'full'] as const;

const idText = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an id');

function commaList<T extends string>(item: z.ZodType<T, string>) {
  return z
    .string()
    .refine((text) => text.trim() !== '', 'must list at least one value')
    .transform((text) => [...new Set(text.split(',').map((part) => part.trim()))])
    .pipe(z.array(item).max(MAX_LIST_ITEMS, `must list at most ${MAX_LIST_ITEMS} values`));
}

const nonNegativeNumber = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, 'must be a non-negative number')
  .transform(Number)
  .pipe(z.number().max(Number.MAX_SAFE_INTEGER, 'is too large'));

const pageSize = z
  .string()
  .trim()
  .regex(/^[+-]?\d+$/, 'must be a whole number')
  .transform(Number)
  .pipe(z.number().min(1, 'must be at least 1'))
  // docs/api.md 6.1: asking for more than the maximum is not an error, it is clamped.
  .transform((n) => Math.min(n, MAX_PAGE_SIZE));

const flag = z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).transform((v) => v === 'true' || v === '1');

const TIMESTAMP_MESSAGE = 'must be an ISO 8601 timestamp, e.g. 2025-01-31T12:00:00Z or 2025-01-31';

/**
 * Logs are stored with millisecond precision, so a bound with finer digits is rounded to the milliseconds that
 * select the same rows: up for a lower bound (>= x.0005 is >= x.001), down (Date's truncation) for an upper one.
 */
function timestamp(bound: 'lower' | 'upper') {
  return z
    .string()
    // An unencoded `+02:00` offset reaches us as ` 02:00` (a query string's + is a space); only a sign fits there.
    .transform((text) => text.replace(/^(\d{4}-\d\d-\d\dT[\d:.]+) (\d\d(:?\d\d)?)$/, '$1+$2'))
    .pipe(z.union([z.iso.datetime({ offset: true }), z.iso.date()], { error: TIMESTAMP_MESSAGE }))
    .transform((text) => {
      const date = new Date(text);
      const subMillisecond = /\.\d{3}(\d*[1-9])/.test(text);
      return bound === 'lower' && subMillisecond ? new Date(date.getTime() + 1) : date;
    })
    // `0000-01-01` and `9999-12-31T23:00:00-14:00` are well-formed, but outside what the database can compare.
    .pipe(storableDate);
}

/** Deployment versions are numbered from 1; `null` asks for the runs of no deployment (manual runs of the draft). */
export const MAX_DEPLOYMENT_VERSION = 1_000_000;
const deploymentVersion = z
  .string()
  .trim()
  .transform((text, ctx) => {
    if (text === 'null') return null;
    const n = /^\d{1,7}$/.test(text) ? Number(text) : NaN;
    if (n >= 1 && n <= MAX_DEPLOYMENT_VERSION) return n;
    ctx.addIssue({ code: 'custom', message: 'must be a deployment version (a whole number from 1) or null for manual runs of the draft' });
    return z.NEVER;
  });

const cursor = z.string().transform((text, ctx) => {
  const decoded = decodeCursor(text);
  if (!decoded) {
    ctx.addIssue({ code: 'custom', message: 'is not a valid cursor: pass nextCursor from a previous response unchanged' });
    return z.NEVER;
  }
  return decoded;
});

export const logsQuerySchema = z
  .object({
    workspaceId: idText,
    workflowIds: commaList(idText).optional(),
    folderIds: commaList(idText).optional(),
    triggers: commaList(z.enum(TRIGGER_TYPES)).optional(),
    level: z.enum(LOG_LEVELS).optional(),
    startDate: timestamp('lower').optional(),
    endDate: timestamp('upper').optional(),
    executionId: idText.optional(),
    /** The runs a workflow block of that execution started (sub-workflows). */
    parentExecutionId: idText.optional(),
    /** The re-runs of that execution. */
    rerunOf: idText.optional(),
    deploymentVersion: deploymentVersion.optional(),
    minDurationMs: nonNegativeNumber.optional(),
    maxDurationMs: nonNegativeNumber.optional(),
    minCost: nonNegativeNumber.optional(),
    maxCost: nonNegativeNumber.optional(),
    /** true: succeeded runs in which a block reported an error; false: runs in which none did. */
    blockErrors: flag.optional(),
    model: storableString.trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
    limit: pageSize.default(DEFAULT_PAGE_SIZE),
    cursor: cursor.optional(),
    order: z.enum(LOG_ORDERS).default('desc'),
    details: z.enum(LOG_DETAILS).default('basic'),
    includeTraceSpans: flag.default(false),
    includeFinalOutput: flag.default(false),
  })
  .superRefine((q, ctx) => {
    const inverted = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (q.startDate && q.endDate && q.endDate < q.startDate) inverted('endDate', 'must not be before startDate');
    if (q.minDurationMs !== undefined && q.maxDurationMs !== undefined && q.maxDurationMs < q.minDurationMs) {
      inverted('maxDurationMs', 'must not be less than minDurationMs');
    }
    if (q.minCost !== undefined && q.maxCost !== undefined && q.maxCost < q.minCost) {
      inverted('maxCost', 'must not be less than minCost');
    }
    if (q.cursor && q.cursor.order !== q.order) {
      inverted('cursor', `was issued for order=${q.cursor.order} and cannot be used with order=${q.order}`);
    }
  });

export type LogsQuery = z.output<typeof logsQuerySchema>;

/** Every parameter the list accepts; anything else is refused, so a misspelt filter never widens a result. */
export const LOGS_QUERY_PARAMETERS: readonly string[] = Object.keys(logsQuerySchema.shape);
