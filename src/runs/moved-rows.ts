// On PostgreSQL a log whose started_at moves to another month moves to another partition (db/executions-partitions.ts):
// closing a paused run and resuming one both restart its clock (approvals.ts). An UPDATE that waited on such a row
// does not re-check it as it would one updated in place: it fails with SQLSTATE 40001 ("tuple to be locked was
// already moved to another partition due to concurrent update"). Run again, the statement sees the row as the other
// transaction left it and answers as the same-month race does (no row matched: someone else decided first).
import { databaseErrorCode } from '../db/errors.js';
import { conflict } from '../errors.js';

const SERIALIZATION_FAILURE = '40001';
/**
 * Each retry follows one move committed meanwhile; a row moves once per step of its life (paused → cancelled,
 * resuming → running, running → timed out), so a few cover any race a request can meet.
 */
const MAX_ATTEMPTS = 4;

/**
 * Runs `work` (a statement, or a transaction that starts with it) again while it fails because the row it waited on
 * moved to another partition. Retrying is safe: the failure rolled `work` back. Still failing after MAX_ATTEMPTS, the
 * caller gets a 409 asking to try again instead of the database's error.
 */
export async function retryingMovedRows<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (databaseErrorCode(error) !== SERIALIZATION_FAILURE) throw error;
      if (attempt >= MAX_ATTEMPTS) {
        throw conflict('CONFLICT', 'The execution kept changing while this request was handled; try again');
      }
    }
  }
}
