// Named prepared statements on PGlite, over the wire protocol (db/rows.ts rowsOfPrepared: the run recorder's batch, a
// worker's claim). PGlite's own `query` prepares every statement unnamed and goes through five protocol steps, each a
// pass through Postgres's main loop: Parse, Describe, Bind, Describe, Execute. Here a statement is parsed once per
// session under its name, and each call is one message of Bind, Describe, Execute and Sync with its values as bind
// parameters, as node-postgres sends them to PostgreSQL: the values never pass through the SQL parser, however large
// (a batch of 9 runs: ~770 → ~600 µs in PGlite). Used by the database thread (pglite-worker.mjs) and by the in-memory
// database of the tests (client.ts), so both run statements the same way.
// Plain JavaScript: the worker thread runs without the tsx loader.
import { parse, protocol, types } from '@electric-sql/pglite';

const { serialize } = protocol;
/** SQLSTATE 26000: no prepared statement of that name in this session (db/errors.ts; this thread cannot import it). */
const NO_SUCH_STATEMENT = '26000';

/**
 * The types Drizzle's PGlite session reads as their text (timestamps, dates, intervals, numeric[] and their arrays),
 * as its own queries ask with identity parsers. Set on the instance, so a prepared statement reads them as every
 * Drizzle query does (checked by test/db/prepared-statements.test.ts).
 */
const TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];

/**
 * `run(name, text, values)` executes `text` as the prepared statement `name` of `db`'s session, preparing it first
 * when this session has not (or no longer has) it, and resolves with its result ({ rows, fields, affectedRows }, rows
 * as objects). Values are text, numbers, booleans or null, sent as text. Calls wait their turn with PGlite's own
 * queries and transactions, as its `query` does.
 */
export function preparedStatements(db) {
  for (const type of TEXT_TYPES) db.parsers[type] = (value) => value;
  const prepared = new Set();
  const send = async (name, text, values, withParse) => {
    const parts = withParse ? [serialize.parse({ name, text, types: [] })] : [];
    parts.push(serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync());
    // Read to its Sync whatever fails, so the session is ready for the next message.
    const { messages } = await db.execProtocol(Buffer.concat(parts), { throwOnError: false });
    // Prepared once parsed, even when its values then fail (a bad value must not leave the name taken but unknown).
    if (withParse && messages.some((m) => m.name === 'parseComplete')) prepared.add(name);
    const failed = messages.find((m) => m.name === 'error');
    if (failed) throw failed;
    return parse.parseResults(messages, db.parsers, { rowMode: 'object' })[0];
  };
  // One runner per session (the database thread's, or the in-memory client's): what it prepared is what it knows of.
  const execute = async (name, text, values) => {
    if (!prepared.has(name)) return send(name, text, values, true);
    try {
      return await send(name, text, values, false);
    } catch (error) {
      if (error?.code !== NO_SUCH_STATEMENT) throw error;
      // Deallocated in the session since (a DEALLOCATE or DISCARD): prepared again.
      prepared.delete(name);
      return send(name, text, values, true);
    }
  };
  return (name, text, params) => {
    const values = params.map((value) => (value === null || value === undefined ? null : String(value)));
    return db._runExclusiveTransaction(() => db._runExclusiveQuery(() => execute(name, text, values)));
  };
}
