// A delivery's body, built when it is sent (issue 28: each value stored once). A delivery of an execution stores only
// what differs per subscription — which optional parts its subscription asked for when the run completed, and the
// owner's limits if it asked for those — plus the event's timestamp; everything else is read from the execution's
// log, whose large values are fetched back from file storage. The log does not change once written, so every attempt
// and every redelivery builds the same bytes (docs/guarantees.md 3.1), and retention keeps a log while a delivery of
// it is pending (services/logs/retention.ts), so a delivery never finds its log gone.
// A delivery that is about no log (a test event) and one made before bodies were built keep their body whole.
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { executions, logExecutionId } from '../../db/schema.js';
import type { FileStorage } from '../files/storage.js';
import type { Logger } from '../../logger.js';
import { storedTrace, type LogRow } from '../logs/columns.js';
import { restoreValues } from '../logs/offloaded-values.js';
import { isAnyExecution } from '../../db/execution-lookup.js';
import { completedExecution, completionPayload, type IncludeFlags, type OwnerLimits } from './payload.js';

/** What a delivery of an execution stores in place of its body. */
export interface DeliveryEnvelope {
  /** The event's timestamp (unix ms): the same for every subscription. */
  timestamp: number;
  include: IncludeFlags;
  /** Only when `include` asks for rate limits or usage: as they were when the run completed. */
  owner?: OwnerLimits;
}

export function encodeEnvelope(envelope: DeliveryEnvelope): string {
  return JSON.stringify(envelope);
}

/** A delivery as stored: its body, or the envelope its body is built from. */
export interface StoredDelivery {
  eventId: string;
  executionId: string | null;
  body: string | null;
  envelope: string | null;
}

/** The columns of a log the payload is made from. */
const logColumns = {
  id: executions.id,
  workflowId: executions.workflowId,
  executionId: logExecutionId,
  status: executions.status,
  level: executions.level,
  trigger: executions.trigger,
  deploymentVersion: executions.deploymentVersion,
  blockErrorCount: executions.blockErrorCount,
  startedAt: executions.startedAt,
  endedAt: executions.endedAt,
  totalDurationMs: executions.totalDurationMs,
  costTotal: executions.costTotal,
  cost: executions.cost,
  files: executions.files,
  finalOutput: executions.finalOutput,
  traceSpans: storedTrace,
};

/**
 * The bodies of `items`, in their order: a stored body as it is, else built from the execution's log (one query for
 * all of them); null where the log is gone. Throws the file storage's error when a large value cannot be read.
 */
export async function deliveryBodies(
  deps: { db: Db; storage: FileStorage; logger?: Logger },
  items: StoredDelivery[],
): Promise<Array<string | null>> {
  const wanted = [...new Set(items.flatMap((d) => (d.body === null && d.executionId !== null ? [d.executionId] : [])))];
  const logs = new Map<string, LogRow>();
  if (wanted.length > 0) {
    const rows = await deps.db.select(logColumns).from(executions).where(isAnyExecution(wanted));
    for (const row of rows) logs.set(row.executionId, row as LogRow);
  }
  const restored = new Map<string, Promise<LogRow>>();
  /** The log with its large values fetched back from file storage, once per execution. */
  const withValues = (row: LogRow) => {
    let found = restored.get(row.executionId);
    if (!found) {
      found = restoreValues(deps.storage, row, { logger: deps.logger }).then((values) => ({ ...row, ...values }) as LogRow);
      restored.set(row.executionId, found);
    }
    return found;
  };
  return Promise.all(
    items.map(async (item) => {
      if (item.body !== null) return item.body;
      const row = item.executionId === null ? undefined : logs.get(item.executionId);
      if (!row || item.envelope === null) return null;
      const envelope = JSON.parse(item.envelope) as DeliveryEnvelope;
      const { include } = envelope;
      const log = include.includeFinalOutput || include.includeTraceSpans ? await withValues(row) : row;
      const payload = completionPayload({ eventId: item.eventId, timestamp: envelope.timestamp, execution: completedExecution(log), include, owner: envelope.owner });
      return JSON.stringify(payload);
    }),
  );
}

/** Why a delivery of an execution has no body: its log was deleted before the delivery was made or sent. */
export const LOG_GONE = "the execution's log was deleted (log retention), so this event's body can no longer be built";
