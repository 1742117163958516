// The FileStorage contract, run against both backends: the local disk, and S3 through a real S3-protocol server
// (s3rver on loopback) over HTTP. What the file code relies on: streamed content stored exactly (even when the
// producer reuses its buffer, as the data-URL decoder does), nothing stored when content fails or has the wrong size,
// missing keys read as null, keys that could name something else refused.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLocalStorage, type FileStorage } from '../../src/services/files/index.js';
import { createS3Storage } from '../../src/services/files/s3-storage.js';
import { startS3Server, type TestS3Server } from '../support/s3-server.js';

const roots: string[] = [];
let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  roots.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

function s3Storage(prefix: string, env: Record<string, string> = {}): FileStorage {
  const config = loadConfig({ ...s3.env(prefix), ...env }).files;
  if (config.backend !== 's3') throw new Error('expected the S3 backend');
  return createS3Storage(config.s3);
}

/**
 * `keepsNoCutUpload`: after content fails part-way, nothing is left under the key. AWS S3 and MinIO refuse a body cut
 * short of its Content-Length; s3rver creates the object's file as the PUT starts and keeps what arrived. Either way
 * the app records no file row for a failed upload, so no download link can reach it.
 */
const backends: Array<{ name: string; open: () => FileStorage; keepsNoCutUpload: boolean }> = [
  {
    name: 'local disk',
    open: () => {
      const root = mkdtempSync(join(tmpdir(), 'sluice-files-'));
      roots.push(root);
      return createLocalStorage(root);
    },
    keepsNoCutUpload: true,
  },
  { name: 'S3 (s3rver)', open: () => s3Storage('contract'), keepsNoCutUpload: false },
];

/** Like decodeDataUrl: every chunk is the same buffer, refilled, so a backend must be done with one before the next. */
function* reusedBuffer(chunks: number, chunkBytes: number): Generator<Buffer> {
  const scratch = Buffer.alloc(chunkBytes);
  for (let i = 0; i < chunks; i++) yield scratch.fill(65 + i);
}

describe.each(backends)('file storage on $name', ({ open, keepsNoCutUpload }) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = open();
  });
  afterAll(() => storage?.close?.());

  it('stores buffers and chunk streams, reads them back as streams with their size, and deletes them', async () => {
    await storage.put('ws_1/file_a', Buffer.from('hello'), 5);
    await storage.put('ws_1/file_b', [Buffer.from('chunk '), Buffer.from('by chunk')], 14);
    const a = await storage.get('ws_1/file_a');
    expect(a?.size).toBe(5);
    expect(await text(a!.body)).toBe('hello');
    expect(await text((await storage.get('ws_1/file_b'))!.body)).toBe('chunk by chunk');
    await storage.delete('ws_1/file_a');
    expect(await storage.get('ws_1/file_a')).toBeNull();
    await storage.delete('ws_1/file_a');
  });

  it('stores every chunk as it was when handed over, though the producer reuses one buffer', async () => {
    const chunkBytes = 768 * 1024;
    await storage.put('ws_1/file_reused', reusedBuffer(4, chunkBytes), 4 * chunkBytes);
    const object = await storage.get('ws_1/file_reused');
    const bytes = Buffer.concat(await object!.body.toArray());
    expect(object!.size).toBe(4 * chunkBytes);
    for (let i = 0; i < 4; i++) {
      const chunk = bytes.subarray(i * chunkBytes, (i + 1) * chunkBytes);
      expect(chunk.every((byte) => byte === 65 + i), `chunk ${i}`).toBe(true);
    }
  });

  it("fails the upload with the content's own error when the content fails part-way", async () => {
    const failing = (async function* () {
      yield Buffer.from('part');
      throw new Error('decode failed');
    })();
    await expect(storage.put('ws_1/file_c', failing, 100)).rejects.toThrow('decode failed');
    if (keepsNoCutUpload) expect(await storage.get('ws_1/file_c')).toBeNull();
  });

  it('fails the upload when the content is shorter or longer than announced', async () => {
    await expect(storage.put('ws_1/file_short', [Buffer.from('four')], 5)).rejects.toThrow('File content was 4 bytes, expected 5');
    await expect(storage.put('ws_1/file_long', [Buffer.from('four'), Buffer.from('more')], 5)).rejects.toThrow('expected 5');
    if (keepsNoCutUpload) for (const key of ['ws_1/file_short', 'ws_1/file_long']) expect(await storage.get(key)).toBeNull();
    // A buffer is measured before anything is sent.
    await expect(storage.put('ws_1/file_buffer', Buffer.from('four'), 3)).rejects.toThrow('expected 3');
    expect(await storage.get('ws_1/file_buffer')).toBeNull();
  });

  it('refuses keys that could name something outside its place', async () => {
    for (const key of ['../escape', 'ws_1/../../escape', '/etc/passwd', 'ws_1\\..\\x', '', '.', 'a//b', 'ws_1/..']) {
      await expect(storage.put(key, Buffer.from('x'), 1)).rejects.toThrow(/Invalid storage key/);
      await expect(storage.get(key)).rejects.toThrow(/Invalid storage key/);
    }
  });
});

describe('local storage', () => {
  it('leaves no partial file behind when writing fails', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-files-'));
    roots.push(root);
    const storage = createLocalStorage(root);
    const failing = (async function* () {
      yield Buffer.from('part');
      throw new Error('decode failed');
    })();
    await expect(storage.put('ws_1/file_c', failing, 4)).rejects.toThrow('decode failed');
    expect(readdirSync(join(root, 'ws_1'))).toEqual([]);
  });
});

describe('S3 storage', () => {
  it('keeps objects under the configured prefix, whatever slashes surround it', async () => {
    const storage = s3Storage('/tenants/acme/');
    try {
      await storage.put('ws_9/file_x', Buffer.from('prefixed'), 8);
      expect(await s3.keys()).toContain('tenants/acme/ws_9/file_x');
      expect((await s3.read('tenants/acme/ws_9/file_x')).toString()).toBe('prefixed');
      await storage.delete('ws_9/file_x');
      expect(await s3.keys()).not.toContain('tenants/acme/ws_9/file_x');
    } finally {
      storage.close?.();
    }
  });

  it('answers 503 FILE_STORAGE_UNAVAILABLE when the server drops the connection in the middle of an upload', async () => {
    const received: number[] = [];
    const dropping = createServer((req) => {
      req.once('data', (chunk: Buffer) => {
        received.push(chunk.length);
        req.socket.destroy();
      });
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    const storage = s3Storage('', { SLUICE_S3_ENDPOINT: `http://127.0.0.1:${(dropping.address() as AddressInfo).port}` });
    try {
      const chunkBytes = 768 * 1024;
      await expect(storage.put('ws_1/file_dropped', reusedBuffer(8, chunkBytes), 8 * chunkBytes)).rejects.toMatchObject({
        code: 'FILE_STORAGE_UNAVAILABLE',
      });
      expect(received.length).toBe(1); // the upload had started streaming when the connection went
    } finally {
      storage.close?.();
      dropping.closeAllConnections();
      await new Promise((resolve) => dropping.close(resolve));
    }
  });

  it('answers 503 FILE_STORAGE_UNAVAILABLE when the bucket does not exist or the server is down', async () => {
    const noBucket = s3Storage('', { SLUICE_S3_BUCKET: 'no-such-bucket' });
    const down = s3Storage('', { SLUICE_S3_ENDPOINT: 'http://127.0.0.1:1' });
    try {
      for (const storage of [noBucket, down]) {
        await expect(storage.put('ws_1/file_a', Buffer.from('x'), 1)).rejects.toMatchObject({ code: 'FILE_STORAGE_UNAVAILABLE', httpStatus: 503 });
        await expect(storage.put('ws_1/file_a', [Buffer.from('x')], 1)).rejects.toMatchObject({ code: 'FILE_STORAGE_UNAVAILABLE' });
        await expect(storage.get('ws_1/file_a')).rejects.toMatchObject({ code: 'FILE_STORAGE_UNAVAILABLE' });
      }
    } finally {
      noBucket.close?.();
      down.close?.();
    }
  });
});
