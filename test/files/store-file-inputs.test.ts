// storeFileInputs and the signed download route, on the real app (database, disk storage, HTTP server).
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../src/db/schema.js';
import { AppError } from '../../src/errors.js';
import {
  createUrlSigner,
  MAX_INLINE_FILE_BYTES,
  storeFileInputs,
  type UserFile,
} from '../../src/services/files/index.js';
import { startTestApp, type TestApp } from '../support/app.js';

const SECRET = 'test-secret-test-secret-test-secret-0123'; // the one startTestApp configures

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const dataUrl = (bytes: Buffer, mime = 'application/octet-stream') => `data:${mime};base64,${bytes.toString('base64')}`;

async function store(value: unknown, fieldName = 'docs'): Promise<UserFile[]> {
  return storeFileInputs(t.app, { workspaceId: t.workspaceId, fieldName, value });
}

async function refusal(value: unknown, fieldName = 'docs'): Promise<AppError> {
  const err = await store(value, fieldName).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

function storedFileCount(): number {
  try {
    return readdirSync(join(t.config.dataDir, 'files', t.workspaceId)).length;
  } catch {
    return 0;
  }
}

/** Fetches a URL the service issued, through the running server (the URL carries the configured base URL). */
function download(url: string, method = 'GET') {
  const { pathname, search } = new URL(url);
  return fetch(t.url + pathname + search, { method });
}

describe('storeFileInputs', () => {
  it('stores an inline file, records it, and gives back a UserFile with a signed URL of this service', async () => {
    const bytes = randomBytes(1000);
    const before = Date.now();
    const [file] = await store([{ type: 'file', data: dataUrl(bytes, 'image/png'), name: 'chart.png', mime: 'image/png' }]);

    expect(file).toEqual({
      url: expect.stringMatching(new RegExp(`^${t.config.baseUrl}/api/files/file_[A-Za-z0-9]{20}\\?expires=\\d+&signature=[0-9a-f]{64}$`)),
      name: 'chart.png',
      size: 1000,
      type: 'image/png',
      uploadedAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    const uploadedAt = Date.parse(file.uploadedAt!);
    expect(uploadedAt).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(file.expiresAt!) - uploadedAt).toBe(60 * 60 * 1000);
    expect(Number(new URL(file.url).searchParams.get('expires'))).toBe(Date.parse(file.expiresAt!));

    const fileId = new URL(file.url).pathname.split('/').pop()!;
    const [row] = await t.app.db.select().from(files).where(eq(files.id, fileId));
    expect(row).toMatchObject({ workspaceId: t.workspaceId, name: 'chart.png', mime: 'image/png', size: 1000, executionId: null });

    const res = await download(file.url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="chart.png"; filename*=UTF-8''chart.png`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('takes the MIME type from the data URL when the object has none, and keeps the order of mixed items', async () => {
    const stored = await store([
      { type: 'url', data: 'https://example.com/a.pdf', name: 'a.pdf', mime: 'application/pdf' },
      { type: 'file', data: dataUrl(Buffer.from('hello'), 'text/plain'), name: 'hello.txt' },
      { type: 'url', data: 'http://example.com/b', name: 'b' },
    ]);
    expect(stored[0]).toEqual({ url: 'https://example.com/a.pdf', name: 'a.pdf', size: null, type: 'application/pdf' });
    expect(stored[1]).toMatchObject({ name: 'hello.txt', size: 5, type: 'text/plain' });
    expect(stored[2]).toEqual({ url: 'http://example.com/b', name: 'b', size: null, type: 'application/octet-stream' });
    expect(await (await download(stored[1].url)).text()).toBe('hello');
  });

  it('takes a file of exactly 20 MB and refuses one byte more with 413 FILE_TOO_LARGE, storing nothing', async () => {
    expect(MAX_INLINE_FILE_BYTES).toBe(20 * 1024 * 1024);
    const exact = randomBytes(MAX_INLINE_FILE_BYTES);
    const [file] = await store([{ type: 'file', data: dataUrl(exact), name: 'exact.bin' }]);
    expect(file.size).toBe(MAX_INLINE_FILE_BYTES);
    const res = await download(file.url);
    expect(Buffer.from(await res.arrayBuffer()).equals(exact)).toBe(true);

    const count = storedFileCount();
    const err = await refusal([
      { type: 'file', data: dataUrl(Buffer.from('small')), name: 'ok.txt' },
      { type: 'file', data: dataUrl(Buffer.concat([exact, Buffer.from([1])])), name: 'over.bin' },
    ]);
    expect(err.httpStatus).toBe(413);
    expect(err.code).toBe('FILE_TOO_LARGE');
    expect(err.details).toEqual([{ path: 'docs.1.data', message: expect.stringMatching(/20 MB/) }]);
    expect(storedFileCount()).toBe(count);
  });

  it('refuses malformed items with 400 VALIDATION_ERROR naming each one, storing nothing', async () => {
    const count = storedFileCount();
    const err = await refusal([
      { type: 'file', data: dataUrl(Buffer.from('fine')), name: 'fine.txt' },
      { type: 'file', data: 'data:text/plain;base64,not base64!', name: 'bad.txt' },
      { type: 'file', data: 'hello', name: 'plain.txt' },
      { type: 'url', data: 'ftp://example.com/x', name: 'x' },
      { type: 'url', data: 'javascript:alert(1)', name: 'y' },
      { type: 'url', data: 'not a url', name: 'z' },
    ]);
    expect(err.httpStatus).toBe(400);
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details).toEqual([
      { path: 'docs.1.data', message: expect.stringMatching(/base64/) },
      { path: 'docs.2.data', message: expect.stringMatching(/data URL/) },
      { path: 'docs.3.data', message: 'must be an http(s) URL' },
      { path: 'docs.4.data', message: 'must be an http(s) URL' },
      { path: 'docs.5.data', message: 'must be an http(s) URL' },
    ]);
    expect(storedFileCount()).toBe(count);
  });

  it('refuses values that are not arrays of file objects, with paths under the field name', async () => {
    expect((await refusal('nope', 'attachments')).details).toEqual([{ path: 'attachments', message: expect.any(String) }]);
    const err = await refusal([{ type: 'blob', data: 1, name: '', mime: 'text/html\r\nX: y' }], 'attachments');
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details?.map((d) => d.path).sort()).toEqual(
      ['attachments.0.data', 'attachments.0.mime', 'attachments.0.name', 'attachments.0.type'].sort(),
    );
  });
});

describe('GET /api/files/:fileId', () => {
  let file: UserFile;
  let fileId: string;
  const bytes = Buffer.from('<html><script>alert(1)</script></html>');
  beforeAll(async () => {
    [file] = await store([{ type: 'file', data: dataUrl(bytes, 'text/html'), name: 'résumé "v2"\r\n.html' }]);
    fileId = new URL(file.url).pathname.split('/').pop()!;
  });

  it('serves the bytes without an API key, as a safely named attachment that cannot run as a page', async () => {
    const res = await download(file.url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(res.headers.get('content-type')).toBe('text/html');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="r_sum_ _v2___.html"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22__.html`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('answers HEAD with the headers only', async () => {
    const res = await download(file.url, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(await res.text()).toBe('');
  });

  it('refuses a tampered, missing or borrowed signature with 403 in the error shape', async () => {
    const url = new URL(file.url);
    const signature = url.searchParams.get('signature')!;
    const expires = url.searchParams.get('expires')!;
    const flipped = (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1);
    const variants = [
      `/api/files/${fileId}?expires=${expires}&signature=${flipped}`,
      `/api/files/${fileId}?expires=${Number(expires) + 1000}&signature=${signature}`,
      `/api/files/${fileId}?expires=${expires}`,
      `/api/files/${fileId}`,
      // Another file's id with this file's signature: a link never opens a different file.
      `/api/files/file_${'A'.repeat(20)}?expires=${expires}&signature=${signature}`,
    ];
    for (const path of variants) {
      const res = await fetch(t.url + path);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: expect.stringMatching(/invalid/), code: 'FORBIDDEN' });
    }
  });

  it('refuses an expired link with 403, even with a genuine signature', async () => {
    const signer = createUrlSigner(SECRET);
    const expired = Date.now() - 1;
    const res = await fetch(`${t.url}/api/files/${fileId}?expires=${expired}&signature=${signer.sign(fileId, expired)}`);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'This download link has expired', code: 'FORBIDDEN' });
  });

  it('answers 404 for a correctly signed link to a file that does not exist', async () => {
    const signer = createUrlSigner(SECRET);
    const url = signer.signedUrl(t.url, 'file_doesnotexist000000', Date.now() + 60_000);
    const res = await fetch(url);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'File not found', code: 'NOT_FOUND' });
  });
});
