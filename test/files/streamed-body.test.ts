// The S3 upload body (streamed-body.ts) for a producer that reuses one buffer: the bytes stay right whether the SDK
// pipes the body (written chunk by chunk, each after the previous write completed) or reads it some other way (copies).
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { streamedBody } from '../../src/services/files/streamed-body.js';

const CHUNK = 64 * 1024;

function* reusedBuffer(chunks: number): Generator<Buffer> {
  const scratch = Buffer.alloc(CHUNK);
  for (let i = 0; i < chunks; i++) yield scratch.fill(65 + i);
}

/**
 * Completes each write later, as a busy socket does, and takes the bytes only then (as the kernel does when the write
 * completes): a chunk refilled before its write completed shows up as the wrong bytes.
 */
function slowSink() {
  const received: Buffer[] = [];
  let resolveFinished!: () => void;
  const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
  const sink = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      setImmediate(() => {
        received.push(Buffer.from(chunk));
        callback();
      });
    },
    final(callback) {
      resolveFinished();
      callback();
    },
  });
  return { sink, received, finished };
}

const expected = (chunks: number) => Buffer.concat(Array.from({ length: chunks }, (_, i) => Buffer.alloc(CHUNK, 65 + i)));

describe('streamed S3 upload body', () => {
  it('piped: each chunk is written before the producer refills its buffer', async () => {
    const { sink, received, finished } = slowSink();
    streamedBody(reusedBuffer(5), 5 * CHUNK, (err) => {
      throw err;
    }).pipe(sink);
    await finished;
    expect(Buffer.concat(received).equals(expected(5))).toBe(true);
  });

  it('read any other way: chunks are copies, so holding on to them is safe', async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of streamedBody(reusedBuffer(5), 5 * CHUNK, () => undefined)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(expected(5))).toBe(true);
  });

  it('reports a failing source and a wrong total, and stops writing', async () => {
    const errors: string[] = [];
    const failing = (async function* () {
      yield Buffer.from('part');
      throw new Error('decode failed');
    })();
    const { sink, received } = slowSink();
    streamedBody(failing, 100, (err) => errors.push(err.message)).pipe(sink);
    const short = slowSink();
    streamedBody([Buffer.from('four')], 5, (err) => errors.push(err.message)).pipe(short.sink);
    await expect.poll(() => errors.length).toBe(2);
    expect(errors.sort()).toEqual(['File content was 4 bytes, expected 5', 'decode failed']);
    expect(sink.writableEnded).toBe(false);
    expect(short.sink.writableEnded).toBe(false);
    expect(Buffer.concat(received).toString()).toBe('part');
  });
});
