// Reads a response body into memory while enforcing a size cap, stopping (and closing the connection) as soon as the
// cap is crossed instead of buffering an arbitrarily large upstream response. Read from the stream's events rather
// than its async iterator: the iterator's promise per chunk and its end-of-stream tracking showed in profiles of
// every outbound call.
import type { Dispatcher } from 'undici';

export interface LimitedBody {
  body: Buffer;
  /** True when the body was longer than the limit; `body` then holds only the first `limit` bytes. */
  exceeded: boolean;
}

/** Closes the body (and its connection) without reading on; the abort error undici emits for it is expected. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** What iterating a stream that closed before its end throws, so such a body fails as it always did. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

export function readLimitedBody(
  body: Dispatcher.ResponseData['body'],
  limit: number,
  declaredLength: string | undefined,
): Promise<LimitedBody> {
  // A declared length over the limit is refused before reading a byte.
  if (declaredLength !== undefined && Number(declaredLength) > limit) {
    discard(body);
    return Promise.resolve({ body: Buffer.alloc(0), exceeded: true });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    body.on('data', (chunk: Buffer | Uint8Array) => {
      if (settled) return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      if (received + buffer.length > limit) {
        settled = true;
        chunks.push(buffer.subarray(0, limit - received));
        discard(body);
        resolve({ body: Buffer.concat(chunks), exceeded: true });
        return;
      }
      chunks.push(buffer);
      received += buffer.length;
    });
    body.on('end', () => {
      if (settled) return;
      settled = true;
      resolve({ body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received), exceeded: false });
    });
    body.on('error', (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
    body.on('close', () => {
      if (settled) return;
      settled = true;
      reject(prematureClose());
    });
  });
}
