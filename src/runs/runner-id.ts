// Who this process is to the others (runners.ts keeps its heartbeat): a module of its own that imports nothing of the
// app, so anything that names the process (a run's log, a flow control slot or lease) may import it.
import { hostname } from 'node:os';
import { randomBase62 } from '../ids.js';

export const HEARTBEAT_MS = 5_000;
/** A process whose heartbeat is older than this is gone. */
export const DEAD_AFTER_MS = 20_000;

/** This process, as named in `runners` and `executions.runner_id`. */
export const RUNNER_ID = `${hostname()}:${process.pid}:${randomBase62(8)}`;
