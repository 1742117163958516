// What the host and a sandbox worker thread say to each other. Everything that crosses is plain data: user values
// cross as JSON text (they are JSON inside the sandbox anyway), so no structured-clone surprises.
import type { ResolvedLimits } from './limits.js';
import type { Program, ProgramOutcome } from './run-program.js';

/** One run, sent to a worker that has nothing else to do. */
export interface RunRequest {
  id: number;
  program: Program;
  /** encodeInputs() output: `{"values":{…},"undefinedNames":[…]}`. */
  inputsJson: string;
  limits: ResolvedLimits;
  /** The run's deadline as wall-clock epoch milliseconds (performance.timeOrigin + performance.now()), so a run
   *  that waited in the queue keeps only what is left of its budget. */
  deadlineEpochMs: number;
}

/** A run's outcome; the value stays JSON text until it is back on the host. */
export type RunReply = { type: 'reply'; id: number } & ProgramOutcome;

/** Sent once the thread has loaded the sandbox and compiled QuickJS: until then it gets no run, so a slow start
 *  is time a run spends queued (under its deadline) rather than time the watchdog counts against the worker. */
export interface ReadyMessage {
  type: 'ready';
}

export type ThreadMessage = RunReply | ReadyMessage;

/** What the host wants from the run now, in the worker's stop slot (an Int32Array over a SharedArrayBuffer). The
 *  interrupt handler reads it, so a stop lands even while the user's code spins without ever yielding. */
export const STOP = { none: 0, aborted: 1, timeout: 2 } as const;

export interface ThreadData {
  /** One Int32 slot, owned by the worker's current run. */
  stop: SharedArrayBuffer;
  /** SandboxPoolOptions.workerNice. */
  nice: number;
}
