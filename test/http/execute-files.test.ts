// Files through the execute endpoint, as a caller sends them: inline data URLs stored and handed to the workflow as
// UserFile objects with signed download URLs; URL files passed through; the 20 MB and body limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, makeState } from '../support/workflows.js';

let t: TestApp;
let wf: string;
beforeAll(async () => {
  t = await startTestApp();
  wf = await createAndDeploy(
    t,
    makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'docs', type: 'files', required: true }] } },
        { id: 'fn', type: 'function', name: 'Inspect', config: { code: 'return { files: <api.docs>, firstName: <api.docs[0].name>, viaInput: <api.input.docs[0].type> };' } },
      ],
      [['start', 'fn']],
    ),
  );
});
afterAll(async () => t?.close());

const dataUrl = (bytes: Buffer, mime = 'text/plain') => `data:${mime};base64,${bytes.toString('base64')}`;

describe('execute with files', () => {
  it('stores inline files and gives the workflow UserFile objects whose signed URL serves the bytes', async () => {
    const content = Buffer.from('hello, file\n');
    const res = await t.request('POST', `/api/workflows/${wf}/execute`, {
      body: {
        docs: [
          { type: 'file', data: dataUrl(content), name: 'hello.txt', mime: 'text/plain' },
          { type: 'url', data: 'https://example.com/report.pdf', name: 'report.pdf', mime: 'application/pdf' },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { files, firstName, viaInput } = res.body.output.result;
    expect(firstName).toBe('hello.txt');
    expect(viaInput).toBe('text/plain');
    const [inline, linked] = files;
    expect(inline).toMatchObject({ name: 'hello.txt', size: content.length, type: 'text/plain' });
    expect(Date.parse(inline.expiresAt) - Date.parse(inline.uploadedAt)).toBe(60 * 60 * 1000);
    expect(linked).toEqual({ url: 'https://example.com/report.pdf', name: 'report.pdf', size: null, type: 'application/pdf' });

    const download = await fetch(inline.url.replace(t.config.baseUrl, t.url));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(content);
    const tampered = await fetch(inline.url.replace(t.config.baseUrl, t.url).replace(/signature=([0-9a-f])/, (_m: string, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`));
    expect(tampered.status).toBe(403);
  });

  it('refuses a file over 20 MB with 413 FILE_TOO_LARGE and a malformed one with 400', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 7);
    const tooBig = await t.request('POST', `/api/workflows/${wf}/execute`, {
      body: { docs: [{ type: 'file', data: dataUrl(big, 'application/octet-stream'), name: 'big.bin', mime: 'application/octet-stream' }] },
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe('FILE_TOO_LARGE');

    const malformed = await t.request('POST', `/api/workflows/${wf}/execute`, {
      body: { docs: [{ type: 'file', data: 'data:text/plain;base64,@@@', name: 'x.txt', mime: 'text/plain' }] },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details[0].path).toMatch(/^docs\.0/);

    const ftp = await t.request('POST', `/api/workflows/${wf}/execute`, {
      body: { docs: [{ type: 'url', data: 'ftp://example.com/x', name: 'x', mime: 'text/plain' }] },
    });
    expect(ftp.status).toBe(400);
  });

  it('refuses a body over the request limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.request('POST', `/api/workflows/${wf}/execute`, {
      rawBody: JSON.stringify({ docs: [], pad: 'x'.repeat(31 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('NUL characters', () => {
  it('runs and logs input containing NUL (stored as U+FFFD) instead of failing with 500', async () => {
    const echo = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'API' },
          { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return <api.input>;' } },
        ],
        [['start', 'fn']],
      ),
    );
    const res = await t.request('POST', `/api/workflows/${echo}/execute`, { body: { text: 'a\u0000b' } });
    expect(res.status).toBe(200);
    expect(res.body.output.result).toEqual({ text: 'a\uFFFDb' });
  });

  it('refuses NUL in management bodies with 400', async () => {
    const res = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'bad\u0000name' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  it('refuses a lone surrogate anywhere in a management body with 400 naming where, rather than storing it changed', async () => {
    // A client's JSON carries a lone surrogate as a \u escape (JSON.stringify writes it so).
    const post = (path: string, rawBody: string) => t.request('POST', path, { rawBody, headers: { 'content-type': 'application/json' } });
    const cases: Array<[unknown, string]> = [
      [{ workspaceId: t.workspaceId, name: 'ok', state: { blocks: { a: { x: ['ok', 'b\udc00'] } } } }, 'state.blocks.a.x.1'],
      [{ workspaceId: t.workspaceId, name: 'ok', state: { blocks: { ['\ud83d']: {} } } }, 'state.blocks.\ufffd'],
    ];
    for (const [body, path] of cases) {
      const res = await post('/api/v1/workflows', JSON.stringify(body));
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details).toEqual([{ path, message: expect.stringContaining('surrogates') }]);
    }
    // A paired surrogate (an emoji) written as escapes is a character like any other.
    const emoji = await post('/api/v1/folders', `{"workspaceId":"${t.workspaceId}","name":"\\ud83d\\ude00"}`);
    expect(emoji.status, emoji.text).toBe(201);
    expect(emoji.body.data.name).toBe('😀');
  });

  it('refuses a file name with NUL or a lone surrogate with 400 naming it, instead of a 500 when it is stored', async () => {
    for (const name of ['a\u0000b.txt', '\ud800.txt']) {
      const res = await t.request('POST', `/api/workflows/${wf}/execute`, {
        body: { docs: [{ type: 'file', data: dataUrl(Buffer.from('hi')), name, mime: 'text/plain' }] },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details).toEqual([{ path: 'docs.0.name', message: expect.stringContaining('NUL') }]);
    }
  });
});
