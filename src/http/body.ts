// Request bodies read under a byte limit while they stream in (docs/api.md 4.1): a body over the limit is refused after
// at most ~limit bytes and its connection is closed instead of being read to the end, and nothing beyond the limit is
// ever held in memory.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../errors.js';
import { assertJsonNesting } from '../json-nesting.js';
import { formatByteLimit } from '../byte-limit.js';
import { parseJsonBytes } from '../services/files/json-bytes.js';
import { errorResponse } from './errors.js';
import { nodeBindings } from './node-bindings.js';

/** First allocation when the length is not declared; doubled as the body grows. */
const INITIAL_CAPACITY = 64 * 1024;
/** How long a refused upload's connection stays open (unread) after the 413, so the client can read the answer. */
const LINGER_MS = 2_000;

/**
 * Reads a request body as JSON while enforcing a byte limit as it streams in (never buffering more than the limit; a
 * 200 MB body is refused after ~limit bytes, the connection not read further). Content-Length over the limit → refused
 * at once. Errors: 413 PAYLOAD_TOO_LARGE, 400 INVALID_JSON (empty or malformed body), 400 VALIDATION_ERROR (nested
 * deeper than the JSON nesting limit). Returns the bytes too (idempotency compares requests by them).
 */
export async function readJsonBodyLimited(c: Context, maxBytes: number): Promise<{ value: unknown; bytes: Buffer }> {
  const bytes = await readBodyLimited(c, maxBytes);
  return { value: parseJsonRequestBody(bytes), bytes };
}

/** A JSON request body: blank or malformed → 400 INVALID_JSON; too deeply nested → 400 VALIDATION_ERROR. */
export function parseJsonRequestBody(bytes: Buffer): unknown {
  if (isBlank(bytes)) throw new AppError('INVALID_JSON', 400, 'The request body must be JSON');
  assertJsonNesting(bytes);
  try {
    return parseJsonBytes(bytes);
  } catch {
    throw new AppError('INVALID_JSON', 400, 'The request body is not valid JSON');
  }
}

/**
 * Body limit middleware for routes that read their body through `c.req` (management, sign-in, subscriptions): a body
 * over `maxBytes` is refused exactly as readBodyLimited refuses one — 413 with `Connection: close`, the rest left
 * unread, the connection closed gently once the answer is out. Hono's own refusal kept the connection alive behind
 * the unread body, and @hono/node-server cut it 500 ms later, so the client's next request on it got no answer.
 */
export function limitBody(maxBytes: number): MiddlewareHandler {
  return bodyLimit({ maxSize: maxBytes, onError: (c) => errorResponse(c, refuseBody(c, maxBytes)) });
}

/** The raw body bytes, at most `maxBytes` of them; 413 (and the connection closed) past that. */
export async function readBodyLimited(c: Context, maxBytes: number): Promise<Buffer> {
  const declared = declaredLength(c.req.header('content-length'));
  if (declared !== undefined && declared > maxBytes) throw refuseBody(c, maxBytes);
  const sink = createSink(maxBytes, declared);
  const incoming = unreadNodeRequest(c);
  const reading = incoming ? readNodeRequest(incoming, sink) : readWebStream(c.req.raw.body, sink, !nodeBindings(c));
  const complete = await reading.catch(() => {
    // The client went away mid-body; nobody will read this answer, but it must not be logged as a server fault.
    throw new AppError('INVALID_JSON', 400, 'The request body could not be read completely');
  });
  if (!complete) throw refuseBody(c, maxBytes);
  return sink.bytes();
}

interface BodySink {
  /** false, keeping nothing of the chunk, when it would take the body over the limit. */
  append(chunk: Uint8Array): boolean;
  bytes(): Buffer;
}

/**
 * One buffer for the whole body. With a declared length it is allocated at that size when the first bytes arrive
 * (one copy of the body, no regrowth garbage, nothing reserved for a client that sends only headers); otherwise it
 * doubles, capped at the limit.
 */
function createSink(maxBytes: number, declared: number | undefined): BodySink {
  let buffer: Buffer = Buffer.alloc(0);
  let length = 0;
  return {
    append(chunk) {
      const needed = length + chunk.byteLength;
      if (needed > maxBytes) return false;
      if (needed > buffer.length) {
        const target =
          declared !== undefined && needed <= declared ? declared : Math.max(needed, buffer.length * 2, INITIAL_CAPACITY);
        const next = Buffer.allocUnsafeSlow(Math.min(target, maxBytes));
        buffer.copy(next, 0, 0, length);
        buffer = next;
      }
      buffer.set(chunk, length);
      length = needed;
      return true;
    },
    bytes: () => buffer.subarray(0, length),
  };
}

/**
 * Reads straight from Node's request: the Web stream @hono/node-server offers copies every chunk, and that garbage
 * (another ~body-size of memory until the next GC) is what kept a 20 MB upload above ~3× its size. 'data' events, not
 * read(): should anything else attach to the request meanwhile, it cannot take chunks away from this reader.
 */
function readNodeRequest(incoming: IncomingMessage, sink: BodySink): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void) => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      if (!sink.append(chunk)) settle(() => resolve(false));
    };
    const onEnd = () => settle(() => resolve(true));
    const onError = (err: Error) => settle(() => reject(err));
    const onClose = () => settle(() => reject(new Error('request closed before its body ended')));
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** On Node the stream is not cancelled when refused: that can reset the connection before the 413 is written. */
async function readWebStream(
  stream: ReadableStream<Uint8Array> | null,
  sink: BodySink,
  cancelOnRefusal: boolean,
): Promise<boolean> {
  if (!stream) return true;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    if (!sink.append(value)) {
      if (cancelOnRefusal) await reader.cancel().catch(() => undefined);
      else reader.releaseLock();
      return false;
    }
  }
}

function declaredLength(header: string | undefined): number | undefined {
  const text = header?.trim();
  return text && /^\d+$/.test(text) ? Number(text) : undefined;
}

function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  return true;
}

/**
 * The 413 for an oversized body. On Node the rest of the body is left unread and the connection is closed once the
 * answer is written (`Connection: close`), instead of being drained.
 */
function refuseBody(c: Context, maxBytes: number): AppError {
  const node = nodeBindings(c);
  if (node) leaveRestUnread(node.incoming, node.outgoing);
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    413,
    `The request body is larger than ${formatByteLimit(maxBytes)}`,
    undefined,
    { Connection: 'close' },
  );
}

/**
 * Stops reading the request and closes its connection gently once the response is out (closeGently). @hono/node-server
 * would also resume an unfinished request after the response to drain it (up to 64 MB); this one's `resume` is
 * disabled so it stays unread: the client's window fills and it stops sending.
 */
function leaveRestUnread(incoming: IncomingMessage, outgoing: ServerResponse): void {
  incoming.pause();
  incoming.resume = () => incoming;
  // Also when the error answer was shaped without `Connection: close`: the connection cannot carry another request.
  outgoing.once('finish', closeGently(incoming.socket));
}

/**
 * Makes the socket's close after a `Connection: close` answer a FIN once the answer is written, then a destroy after
 * LINGER_MS. Node's own `destroySoon` destroys the socket as soon as the answer is handed to the kernel: with request
 * bytes still unread, that sends a TCP reset, which discards whatever of the answer was not delivered yet (the
 * endpoint fuzz saw a 243 KB /metrics answer cut at 65 KB) or reaches the client before it has read the answer.
 * Returns the close, for a caller that closes the connection itself.
 */
function closeGently(socket: Socket): () => void {
  let closing = false;
  const lingerThenDestroy = () => {
    if (closing) return;
    closing = true;
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
  socket.destroySoon = lingerThenDestroy;
  return lingerThenDestroy;
}

/**
 * A request answered before its body has fully arrived is answered with `Connection: close`: @hono/node-server then
 * drains the rest for at most 500 ms and destroys the socket, so a client that kept the connection alive would send
 * its next request into a closing socket (found by the endpoint fuzz, issue 21). The close is a gentle one
 * (closeGently), or the answer could be cut short.
 */
export const closeWhenBodyUnfinished: MiddlewareHandler = async (c, next) => {
  await next();
  const node = nodeBindings(c);
  if (!node || node.incoming.complete || node.outgoing.headersSent) return;
  closeGently(node.incoming.socket);
  try {
    c.res.headers.set('Connection', 'close');
  } catch {
    // An answer with immutable headers: Node still closes the socket after the drain; nothing more to do here.
  }
};

/** The Node request, if nothing has started reading its body (else the Web stream, which then owns it, is used). */
function unreadNodeRequest(c: Context): IncomingMessage | undefined {
  const incoming = nodeBindings(c)?.incoming;
  if (!incoming || incoming.readableDidRead || incoming.readableEnded || c.req.raw.bodyUsed) return undefined;
  return incoming.listenerCount('data') === 0 && incoming.listenerCount('readable') === 0 ? incoming : undefined;
}
