// Reads a response body into memory while enforcing a size cap, stopping (and closing the connection) as soon as the
// cap is crossed instead of buffering an arbitrarily large upstream response.
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

export async function readLimitedBody(
  body: Dispatcher.ResponseData['body'],
  limit: number,
  declaredLength: string | undefined,
): Promise<LimitedBody> {
  // A declared length over the limit is refused before reading a byte.
  if (declaredLength !== undefined && Number(declaredLength) > limit) {
    discard(body);
    return { body: Buffer.alloc(0), exceeded: true };
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    if (received + buffer.length > limit) {
      chunks.push(buffer.subarray(0, limit - received));
      discard(body);
      return { body: Buffer.concat(chunks), exceeded: true };
    }
    chunks.push(buffer);
    received += buffer.length;
  }
  return { body: Buffer.concat(chunks), exceeded: false };
}
