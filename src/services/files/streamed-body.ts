// The body of a streamed S3 upload, for content whose producer reuses its buffer from chunk to chunk.
import { Readable } from 'node:stream';
import { sizeMismatch } from './storage-key.js';

/**
 * The request body for streamed content. The producer may reuse one buffer for every chunk (decodeDataUrl does), so a
 * chunk must be fully handed to the socket before the next one is asked for:
 * - The SDK sends a stream body with `body.pipe(request)`; this stream's `pipe` writes each chunk and waits for the
 *   write's callback (the bytes are with the kernel) before pulling the next. No copies, no garbage: a 20 MB file
 *   costs one decode buffer here.
 * - Read any other way (an SDK version or setting that wraps the body), it still gives correct bytes: every chunk is
 *   then copied as it is read, at the cost of garbage the size of the file until the next GC.
 * A source error, or a total other than `size`, is reported through `onError` (which aborts the request).
 */
export function streamedBody(data: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, size: number, onError: (err: Error) => void): Readable {
  async function* counted() {
    let total = 0;
    try {
      for await (const chunk of data) {
        total += chunk.byteLength;
        if (total > size) throw sizeMismatch(size, total);
        yield chunk;
      }
      if (total !== size) throw sizeMismatch(size, total);
    } catch (err) {
      onError(err instanceof Error ? err : new Error(String(err)));
      throw err;
    }
  }
  async function* copies() {
    for await (const chunk of counted()) yield Buffer.from(chunk);
  }
  const body = Readable.from(copies(), { objectMode: false, highWaterMark: 64 * 1024 });
  // Errors are reported through onError; without a listener the stream's own 'error' would crash the process.
  body.on('error', () => undefined);
  body.pipe = <T extends NodeJS.WritableStream>(destination: T): T => {
    void writeInTurn(counted(), destination, body).catch(() => undefined);
    return destination;
  };
  return body;
}

/** Writes chunk after chunk, each once the previous one's write has completed; stops when either side goes away. */
async function writeInTurn(chunks: AsyncIterable<Uint8Array>, destination: NodeJS.WritableStream, body: Readable): Promise<void> {
  let gone: (err: Error) => void = () => undefined;
  const goneAway = new Promise<never>((_, reject) => (gone = reject));
  goneAway.catch(() => undefined);
  const stop = () => gone(new Error('The upload request ended before its body was written'));
  destination.once('close', stop);
  body.once('close', stop);
  try {
    for await (const chunk of chunks) {
      const written = new Promise<void>((resolve, reject) => {
        destination.write(chunk, (err?: Error | null) => (err ? reject(err) : resolve()));
      });
      // When the request goes away first, this write still fails later: that failure must not go unhandled.
      written.catch(() => undefined);
      await Promise.race([written, goneAway]);
    }
    destination.end();
  } finally {
    destination.removeListener('close', stop);
    body.removeListener('close', stop);
  }
}
