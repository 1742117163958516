// Server-Sent Events for runs (docs/api.md 4.5): the headers, serialised writes, a `: ping` comment every
// keep-alive interval so proxies keep the connection open, cancellation when the client goes away, and the
// closing `done` record and `[DONE]` terminator — also when the run itself throws.
import type { Context } from 'hono';
import { stream } from 'hono/streaming';
import { sseRecord } from '../runs/index.js';
import type { AppEnv } from './env.js';
import { requestLogger } from './observe.js';

export interface SseRun {
  /** Queues one record; records go out in the order sent. */
  send(record: unknown): void;
  /** Aborted when the client disconnects: pass it to the run so it is cancelled. */
  signal: AbortSignal;
}

/**
 * Streams a run: `produce` sends records while it runs and returns the `done` record, which is followed by
 * `[DONE]`. If it throws, a failed `done` record is sent instead (the details go to the server log).
 */
export function streamRun(
  c: Context<AppEnv>,
  options: { headers?: Record<string, string>; keepaliveMs: number },
  produce: (run: SseRun) => Promise<Record<string, unknown>>,
) {
  for (const [name, value] of Object.entries(options.headers ?? {})) c.header(name, value);
  c.header('Content-Type', 'text/event-stream');
  c.header('Cache-Control', 'no-cache');
  c.header('X-Accel-Buffering', 'no');
  // No Connection header of our own: Node sends keep-alive itself, and `close` while the server drains (drain.ts).
  return stream(c, async (out) => {
    const cancel = new AbortController();
    out.onAbort(() => cancel.abort(new Error('client disconnected')));
    // Writes are serialised: chunk events arrive synchronously from the engine while earlier writes still flush.
    let pending = Promise.resolve();
    const write = (text: string) => {
      pending = pending.then(() => (cancel.signal.aborted ? undefined : out.write(text).then(() => undefined)));
      return pending;
    };
    const keepalive = setInterval(() => void write(': ping\n\n'), options.keepaliveMs);
    try {
      const done = await produce({ send: (record) => void write(sseRecord(record)), signal: cancel.signal });
      await write(sseRecord(done));
      await write(sseRecord('[DONE]'));
    } catch (err) {
      requestLogger(c)?.error({ err }, 'streaming execution failed');
      await write(sseRecord({ event: 'done', success: false, output: {}, metadata: { duration: 0 }, error: 'Internal server error' }));
      await write(sseRecord('[DONE]'));
    } finally {
      clearInterval(keepalive);
      await pending.catch(() => undefined);
    }
  });
}
