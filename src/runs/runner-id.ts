// Who this process is to the others (runners.ts keeps its heartbeat): a module of its own that imports nothing of the
// app, so anything that names the process (a run's log, a flow control slot or lease) may import it.
import { hostname } from 'node:os';
import { randomBase62 } from '../ids.js';
import { testKnobMs } from '../test-knobs.js';

/**
 * `SLUICE_TEST_HEARTBEAT_MS` / `SLUICE_TEST_DEAD_AFTER_MS` (test knobs, src/test-knobs.ts) shorten the crash bound for
 * tests that kill a process and wait for another to notice (20 s otherwise). Every process of such a test must be
 * started with the same pair, since each judges the others' heartbeats by its own bound.
 */
export const HEARTBEAT_MS = testKnobMs('SLUICE_TEST_HEARTBEAT_MS', 5_000, 100);
/** A process whose heartbeat is older than this is gone. */
export const DEAD_AFTER_MS = testKnobMs('SLUICE_TEST_DEAD_AFTER_MS', 20_000, 100);
if (DEAD_AFTER_MS < 2 * HEARTBEAT_MS) throw new Error('SLUICE_TEST_DEAD_AFTER_MS must be at least twice the heartbeat');

/** This process, as named in `runners` and `executions.runner_id`. */
export const RUNNER_ID = `${hostname()}:${process.pid}:${randomBase62(8)}`;
