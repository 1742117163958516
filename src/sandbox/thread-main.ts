// The worker-thread side of the sandbox: runs one program at a time, as the host sends them, and answers each with
// its outcome. A stop (abort or deadline) arrives through the shared slot, not as a message, because a spinning
// run never gives this thread's event loop a chance to read messages.
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { DEFAULT_LIMITS } from './limits.js';
import { runProgram, type StopReason } from './run-program.js';
import { STOP, type RunReply, type RunRequest, type ThreadData, type ThreadMessage } from './thread-protocol.js';
import { warmUp } from './wasm-pool.js';

const port = parentPort;
if (!port) throw new Error('thread-main.ts runs only as a worker thread (see thread-pool.ts)');
const { stop, nice } = workerData as ThreadData;
const stopSlot = new Int32Array(stop);
// On Linux a nice value belongs to a thread, so this lowers only this worker: when user code and the HTTP or
// database threads want the same core, they win. Elsewhere it would renice the whole process, so it is skipped.
// Only ever lowered (raising needs privileges); a failure keeps the priority the thread was born with.
if (process.platform === 'linux' && nice > getPriority()) {
  try {
    setPriority(nice);
  } catch {
    // not worth failing the thread over
  }
}

function requestedStop(): StopReason | undefined {
  const value = Atomics.load(stopSlot, 0);
  if (value === STOP.aborted) return 'aborted';
  if (value === STOP.timeout) return 'timeout';
  return undefined;
}

port.on('message', async (request: RunRequest) => {
  // Both clocks count from their own thread's start; the epoch deadline converts between them.
  const deadline = request.deadlineEpochMs - performance.timeOrigin;
  const outcome = await runProgram(request.program, request.inputsJson, request.limits, { deadline, requestedStop });
  const reply: RunReply = { type: 'reply', id: request.id, ...outcome };
  port.postMessage(reply);
});

// Compile QuickJS and keep one instance idle before saying ready, so the first run finds a warm thread. A failure
// here ends the thread, which the host reports to the runs waiting for it.
await warmUp(DEFAULT_LIMITS.memoryLimitBytes);
port.postMessage({ type: 'ready' } satisfies ThreadMessage);
