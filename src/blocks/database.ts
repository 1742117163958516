// The database block: one parameterised statement on PostgreSQL or MySQL/MariaDB, through a stored credential. The
// SQL text runs exactly as written — a reference inside it is refused when the workflow is saved — and values from
// the run reach the server only as parameters (`params`, `$1`… or `?`). A statement the server refuses (syntax,
// constraint, time-out) or a connection that fails is the block's `error` output, like the API block's.
import { z } from 'zod';
import { runSqlStatement } from '../connectors/sql.js';
import { findReferences } from '../workflow/index.js';
import { blockCredential, connectorFailure, connectorRun } from './connector-block.js';
import { defineBlock } from './define-block.js';
import { databaseForm } from './forms.js';
import type { WrittenConfigIssue } from './types.js';

export const DEFAULT_MAX_ROWS = 1_000;
export const MAX_ROWS_LIMIT = 10_000;

export const databaseConfigSchema = z.object({
  credentialId: z.string().min(1, 'choose a postgres or mysql credential'),
  query: z.string().trim().min(1, 'is required').max(100_000),
  /** Values for `$1`, `$2`… (PostgreSQL) or each `?` (MySQL), in order; references keep their type. */
  params: z.array(z.unknown()).max(1_000).default([]),
  maxRows: z.coerce.number().int().min(1).max(MAX_ROWS_LIMIT).default(DEFAULT_MAX_ROWS),
  timeoutMs: z.coerce.number().int().min(100).max(300_000).default(30_000),
});
export type DatabaseConfig = z.infer<typeof databaseConfigSchema>;

/** A reference inside the SQL text would splice run data into SQL: it goes in `params` instead. */
function referencesInQuery(config: unknown): WrittenConfigIssue[] {
  const query = (config as { query?: unknown } | null)?.query;
  if (typeof query !== 'string') return [];
  const found = findReferences(query);
  if (found.length === 0) return [];
  return [
    {
      path: ['query'],
      message:
        `the SQL text must not hold references (found ${found[0]!.raw}): write a placeholder ($1, $2… for PostgreSQL, ? for MySQL) ` +
        'and put the reference in params, so its value is sent apart from the SQL',
    },
  ];
}

export const databaseBlock = defineBlock<DatabaseConfig>(databaseForm, {
  configSchema: databaseConfigSchema,
  writtenConfigIssues: referencesInQuery,
  // The engine leaves the SQL text as written, so a state saved before this rule cannot splice values either.
  keepsReference: (_ref, path) => path[0] === 'query',
  async run(ctx) {
    const { query, params, maxRows, timeoutMs } = ctx.config;
    const [issue] = referencesInQuery(ctx.config);
    if (issue) throw new Error(`query: ${issue.message}`);
    const credential = await blockCredential(ctx, ['postgres', 'mysql']);
    try {
      const result = await runSqlStatement(credential, connectorRun(ctx), { query, params, maxRows, timeoutMs });
      return { output: { rows: result.rows, rowCount: result.rowCount, truncated: result.truncated } };
    } catch (error) {
      return connectorFailure(credential, { rows: [], rowCount: 0, truncated: false }, error);
    }
  },
});
