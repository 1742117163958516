// Finding a log by its execution id. A run's log id is its execution id's pair (ids.ts `pairedLogId`), so a log is
// found through the primary key; only logs written before that (2026-11-28) are indexed by execution id, in a partial
// index whose predicate is `unpairedLog` (db/schema.ts, migration 0031), which each condition here states. A paired
// log keeps no execution id in its column (`pairedLog` holds for it; a few written on 2026-11-28 keep the pair's).
// The paired arm names the execution id only through the row's own pairing: were `execution_id = x` in both arms,
// the planner would take it out of the OR, and a join on it (a correlated lookup) became a hash join over every log.
import { inArray, sql, type SQL } from 'drizzle-orm';
import { pairedLogId } from '../ids.js';
import { executions, pairedLog, pairedLogIdOf, unpairedLog } from './schema.js';

const PAIRED = pairedLog(executions);
const UNPAIRED = unpairedLog(executions);

/** The log of this execution. */
export function isExecution(executionId: string): SQL {
  const logId = pairedLogId(executionId);
  const unpaired = sql`(${executions.executionId} = ${executionId} and ${UNPAIRED})`;
  return logId === undefined ? unpaired : sql`((${executions.id} = ${logId} and ${PAIRED}) or ${unpaired})`;
}

/** The logs of these executions (none for an empty list). */
export function isAnyExecution(executionIds: string[]): SQL {
  const paired = executionIds.map(pairedLogId).filter((id): id is string => id !== undefined);
  return sql`((${inArray(executions.id, paired)} and ${PAIRED})
    or (${inArray(executions.executionId, executionIds)} and ${UNPAIRED}))`;
}

/**
 * The log of the execution another row of the query names (`executionIdOf`, e.g. `s.execution_id`), for a correlated
 * subquery over `executions` unaliased. Its paired arm holds only for a row whose own execution id is the one named:
 * the log id says it (`id` = its execution id's pair) and the named id begins `exec_`, as every execution id does.
 */
export function isExecutionNamedBy(executionIdOf: SQL): SQL {
  return sql`((${executions.id} = ${pairedLogIdOf(executionIdOf)} and ${PAIRED}
      and left(${executionIdOf}, 5) = 'exec_')
    or (${executions.executionId} = ${executionIdOf} and ${UNPAIRED}))`;
}
