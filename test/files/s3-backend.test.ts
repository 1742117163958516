// Files through the execute endpoint with SLUICE_FILES_BACKEND=s3, against a real S3-protocol server (s3rver) on
// loopback: inline files land in the bucket under the prefix, the service's own signed /api/files URLs stream them
// back, and forged, expired or dangling links are refused as on the local disk.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { startS3Server, type TestS3Server } from '../support/s3-server.js';
import { createAndDeploy, makeState } from '../support/workflows.js';

const PREFIX = 'sluice/files';
let s3: TestS3Server;
let t: TestApp;
let wf: string;

const filesWorkflow = makeState(
  [
    { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'docs', type: 'files', required: true }] } },
    { id: 'fn', type: 'function', name: 'Inspect', config: { code: 'return { files: <api.docs> };' } },
  ],
  [['start', 'fn']],
);

beforeAll(async () => {
  s3 = await startS3Server();
  t = await startTestApp(s3.env(PREFIX));
  wf = await createAndDeploy(t, filesWorkflow);
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

const dataUrl = (bytes: Buffer, mime = 'text/plain') => `data:${mime};base64,${bytes.toString('base64')}`;
/** The signed URL names the configured base URL; the test server listens on an ephemeral port. */
const local = (url: string) => url.replace(t.config.baseUrl, t.url);

async function upload(app: TestApp, workflowId: string, content: Buffer, name = 'report.bin') {
  const res = await app.request('POST', `/api/workflows/${workflowId}/execute`, {
    body: { docs: [{ type: 'file', data: dataUrl(content, 'application/octet-stream'), name, mime: 'application/octet-stream' }] },
  });
  return res;
}

describe('S3 file backend over HTTP', () => {
  it('stores an inline file in the bucket under <prefix>/<workspace>/<file> and nothing on the local disk', async () => {
    const content = Buffer.from('hello from the bucket\n');
    const res = await upload(t, wf, content, 'hello.txt');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [file] = res.body.output.result.files;
    expect(file).toMatchObject({ name: 'hello.txt', size: content.length, type: 'application/octet-stream' });

    const fileId = new URL(file.url).pathname.split('/').pop();
    const key = `${PREFIX}/${t.workspaceId}/${fileId}`;
    expect(await s3.keys()).toContain(key);
    expect(await s3.read(key)).toEqual(content);
    expect(existsSync(join(t.config.dataDir, 'files'))).toBe(false);
  });

  it('serves the bytes through the signed URL, as an attachment, with GET and HEAD', async () => {
    const content = randomBytes(5 * 1024 * 1024 + 3); // several decode slices, an odd length
    const res = await upload(t, wf, content);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [file] = res.body.output.result.files;

    const download = await fetch(local(file.url));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(download.headers.get('content-length')).toBe(String(content.length));
    expect(download.headers.get('content-disposition')).toContain('filename="report.bin"');
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);

    const head = await fetch(local(file.url), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(content.length));
  });

  it('refuses a forged or expired signature with 403 before reading the bucket', async () => {
    const res = await upload(t, wf, Buffer.from('secret bytes'));
    const url = new URL(local(res.body.output.result.files[0].url));
    const fileId = url.pathname.split('/').pop()!;

    const forged = new URL(url);
    forged.searchParams.set('signature', 'f'.repeat(64));
    const forgedRes = await fetch(forged);
    expect(forgedRes.status).toBe(403);
    expect(await forgedRes.json()).toEqual({ error: 'This download link is invalid', code: 'FORBIDDEN' });

    const longer = new URL(url);
    longer.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 60_000));
    expect((await fetch(longer)).status).toBe(403);

    // A genuine signature whose time has passed, as the service itself would have issued it an hour ago.
    const expired = t.app.files.signer.signedUrl(t.url, fileId, Date.now() - 1);
    const expiredRes = await fetch(expired);
    expect(expiredRes.status).toBe(403);
    expect(await expiredRes.json()).toEqual({ error: 'This download link has expired', code: 'FORBIDDEN' });
  });

  it('answers 404 when the object is gone from the bucket, and for an unknown file', async () => {
    const res = await upload(t, wf, Buffer.from('soon gone'));
    const file = res.body.output.result.files[0];
    const fileId = new URL(file.url).pathname.split('/').pop()!;
    await s3.remove(`${PREFIX}/${t.workspaceId}/${fileId}`);
    const gone = await fetch(local(file.url));
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: 'File not found', code: 'NOT_FOUND' });

    const unknown = await fetch(t.app.files.signer.signedUrl(t.url, 'file_doesnotexist', Date.now() + 60_000));
    expect(unknown.status).toBe(404);
  });

  it('answers 503 FILE_STORAGE_UNAVAILABLE when the S3 server cannot be reached', async () => {
    const broken = await startTestApp({ ...s3.env(PREFIX), SLUICE_S3_ENDPOINT: 'http://127.0.0.1:1' });
    try {
      const brokenWf = await createAndDeploy(broken, filesWorkflow);
      const res = await upload(broken, brokenWf, Buffer.from('nowhere to go'));
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'File storage is unavailable; try again later', code: 'FILE_STORAGE_UNAVAILABLE' });
    } finally {
      await broken.close();
    }
  });
});
