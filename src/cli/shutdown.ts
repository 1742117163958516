// Stopping `sluice serve` and `sluice worker` on SIGTERM/SIGINT. Each step of the graceful path has its own grace (the
// HTTP drain's, the worker's), but each also waits on things outside the process: a query to a database that stopped
// answering, a connection pool that will not end while a blocked query holds one of its connections, a start-up still
// waiting for the database when the signal came. Any of them held a process for minutes (issue 21), so the whole
// shutdown has one deadline, counted from the signal: when it passes the process exits whatever is still pending,
// naming the step it was in. A second signal exits at once.
import type { Config } from '../config.js';
import { CANCEL_WAIT_MS } from '../jobs/worker.js';
import type { Logger } from '../logger.js';

/** After the graces and the worker's wait for cancelled jobs: closing the runner, the database and the rest. */
const CLOSE_ALLOWANCE_MS = 5_000;

/** What a shutdown cut short (deadline passed, second signal) or failed exits with; a complete one exits 0. */
export const UNFINISHED_SHUTDOWN_EXIT_CODE = 1;

export interface ShutdownStep {
  /** Named in the log line when the deadline passes during this step. */
  name: string;
  run(): Promise<void>;
}

/** From the signal to the forced exit: every grace in turn, the worker's wait for cancelled jobs, and closing. */
export function shutdownDeadlineMs(config: Config): number {
  return config.httpShutdownGraceMs + config.worker.shutdownGraceMs + CANCEL_WAIT_MS + CLOSE_ALLOWANCE_MS;
}

/**
 * Installs the SIGTERM/SIGINT handlers before anything starts: until a handler exists, the signal's default action
 * kills the process on the spot, so a signal arriving during start-up would skip the graceful path. The returned
 * function supplies the steps, run in order; a signal that came earlier waits for them (within the deadline).
 */
export function handleShutdownSignals(logger: Logger, deadlineMs: number): (steps: ShutdownStep[]) => void {
  let provide!: (steps: ShutdownStep[]) => void;
  const provided = new Promise<ShutdownStep[]>((resolve) => (provide = resolve));
  let stopping = false;
  let step = 'start-up';
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal, step }, 'second signal: exiting without finishing the shutdown');
      process.exit(UNFINISHED_SHUTDOWN_EXIT_CODE);
    }
    stopping = true;
    logger.info({ signal, deadlineMs }, 'shutting down');
    setTimeout(() => {
      logger.error({ step, deadlineMs }, 'shutdown deadline passed: exiting with work still pending');
      process.exit(UNFINISHED_SHUTDOWN_EXIT_CODE);
    }, deadlineMs);
    try {
      for (const next of await provided) {
        step = next.name;
        await next.run();
      }
      process.exit(0);
    } catch (err) {
      logger.error({ err, step }, 'shutdown failed');
      process.exit(UNFINISHED_SHUTDOWN_EXIT_CODE);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  return provide;
}
