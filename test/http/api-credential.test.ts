// The API block's `credentialId` (issue 26): an `http` credential's bearer token, basic auth, header or query API key,
// or OAuth2 client-credentials token is applied to the request; OAuth2 tokens are fetched once and reused across runs,
// fetched again after a 401; the secrets never show in the execute answer, the log or the app's log lines.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, logDetailOf, makeState } from '../support/workflows.js';

const SECRETS = {
  bearer: 'bearer-Tk-81f2c9',
  password: 'basic-Pw-77a1e0',
  header: 'hdr-Key-5513bd',
  query: 'qry-Key-90e1aa',
  clientSecret: 'client-Sec-4f0d2e',
};

interface Seen {
  path: string;
  authorization?: string;
  apiKey?: string;
  query: Record<string, string>;
  body: string;
}

const seen: Seen[] = [];
let tokenCalls = 0;
/** The token the API accepts now; the test revokes it to see the block fetch a new one. */
let validToken = '';
let upstream: Server;
let base = '';

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    void readBody(req).then((body) => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({
        path: url.pathname,
        authorization: req.headers.authorization,
        apiKey: req.headers['x-api-key'] as string | undefined,
        query: Object.fromEntries(url.searchParams),
        body,
      });
      res.setHeader('content-type', 'application/json');
      if (url.pathname === '/token') {
        const form = new URLSearchParams(body);
        if (form.get('client_secret') !== SECRETS.clientSecret || form.get('grant_type') !== 'client_credentials') {
          res.statusCode = 401;
          return res.end(JSON.stringify({ error: 'invalid_client', error_description: 'bad client' }));
        }
        tokenCalls++;
        validToken = `access-${tokenCalls}-${form.get('scope') ?? ''}`;
        return res.end(JSON.stringify({ access_token: validToken, token_type: 'Bearer', expires_in: 3600 }));
      }
      if (url.pathname === '/strict' && req.headers.authorization !== `Bearer ${validToken}`) {
        res.statusCode = 401;
        return res.end(JSON.stringify({ error: 'token revoked' }));
      }
      // Only /strict says which token it saw (an OAuth2 token, not a stored secret); /echo answers without echoing.
      res.end(JSON.stringify(url.pathname === '/strict' ? { ok: true, authorization: req.headers.authorization } : { ok: true }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const logTo = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  t = await startTestApp({ LOG_LEVEL: 'debug' }, { logTo });
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

async function credential(name: string, data: Record<string, unknown>, type = 'http'): Promise<string> {
  const created = await t.request('POST', '/api/v1/credentials', { body: { workspaceId: t.workspaceId, name, type, data } });
  expect(created.status, created.text).toBe(201);
  return created.body.data.id;
}

/** A workflow whose API block calls `path` with the credential, answering with the block's output. */
function calling(path: string, credentialId: string, extra: Record<string, unknown> = {}) {
  return makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'Start' },
      { id: 'api', type: 'api', name: 'Call', config: { url: `${base}${path}`, method: 'GET', retries: 0, credentialId, ...extra } },
      { id: 'ok', type: 'response', name: 'Ok', config: { status: 200, body: { status: '<call.status>', data: '<call.data>', error: '<call.error>' } } },
      { id: 'failed', type: 'response', name: 'Failed', config: { status: 200, body: { failed: true, error: '<call.error>' } } },
    ],
    [
      ['start', 'api'],
      ['api', 'ok'],
      ['api', 'failed', 'error'],
    ],
  );
}

async function run(workflowId: string) {
  const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: {} });
  expect(res.status, res.text).toBe(200);
  return res;
}

function expectNoSecret(...texts: string[]) {
  for (const text of texts) for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

describe('API block with a credential', () => {
  it('applies bearer, basic, header and query credentials, and keeps their secrets out of the answer, the log and the log lines', async () => {
    const cases: Array<[string, Record<string, unknown>, (s: Seen) => void]> = [
      ['Bearer', { scheme: 'bearer', token: SECRETS.bearer }, (s) => expect(s.authorization).toBe(`Bearer ${SECRETS.bearer}`)],
      [
        'Basic',
        { scheme: 'basic', user: 'robot', password: SECRETS.password },
        (s) => expect(s.authorization).toBe(`Basic ${Buffer.from(`robot:${SECRETS.password}`).toString('base64')}`),
      ],
      ['Header', { scheme: 'header', name: 'X-Api-Key', value: SECRETS.header }, (s) => expect(s.apiKey).toBe(SECRETS.header)],
      ['Query', { scheme: 'query', name: 'api_key', value: SECRETS.query }, (s) => expect(s.query).toEqual({ page: '2', api_key: SECRETS.query })],
    ];
    for (const [name, data, check] of cases) {
      const id = await credential(`${name} auth`, data);
      const workflow = await createAndDeploy(t, calling('/echo?page=2', id, { headers: [{ key: 'Authorization', value: 'Bearer from-the-block' }] }), `${name} call`);
      const before = seen.length;
      const res = await run(workflow);
      expect(res.body, name).toMatchObject({ status: 200, data: { ok: true } });
      expect(seen.length).toBe(before + 1);
      const request = seen.at(-1)!;
      check(request);
      // The credential's auth wins over a header the block sets by hand (basic/bearer), and leaves it otherwise.
      if (name === 'Header' || name === 'Query') expect(request.authorization).toBe('Bearer from-the-block');
      const log = await logDetailOf(t, res.headers.get('x-execution-id')!);
      expectNoSecret(res.text, JSON.stringify(log));
    }
    expectNoSecret(lines.join(''));
  });

  it('fetches an OAuth2 token once for several runs, and again once after a 401', async () => {
    const id = await credential('OAuth', {
      scheme: 'oauth2',
      tokenUrl: `${base}/token`,
      clientId: 'sluice',
      clientSecret: SECRETS.clientSecret,
      scope: 'read',
    });
    const workflow = await createAndDeploy(t, calling('/strict', id), 'OAuth call');
    const callsBefore = tokenCalls;
    for (let i = 0; i < 3; i++) {
      const res = await run(workflow);
      expect(res.body).toMatchObject({ status: 200, data: { ok: true, authorization: `Bearer access-${callsBefore + 1}-read` } });
    }
    expect(tokenCalls).toBe(callsBefore + 1);

    validToken = 'revoked-elsewhere';
    const after401 = await run(workflow);
    expect(after401.body).toMatchObject({ status: 200, data: { authorization: `Bearer access-${callsBefore + 2}-read` } });
    expect(tokenCalls).toBe(callsBefore + 2);

    // Rotating the credential (a new version) fetches a new token.
    await t.request('PATCH', `/api/v1/credentials/${id}`, { body: { data: { scope: 'write' } } });
    const rotated = await run(workflow);
    expect(rotated.body).toMatchObject({ data: { authorization: `Bearer access-${callsBefore + 3}-write` } });
    expectNoSecret(lines.join(''), after401.text, rotated.text);
  });

  it('takes the error edge when the token endpoint refuses, with the server’s reason and without the secret', async () => {
    const id = await credential('OAuth wrong', { scheme: 'oauth2', tokenUrl: `${base}/token`, clientId: 'sluice', clientSecret: 'not-the-secret' });
    const res = await run(await createAndDeploy(t, calling('/echo', id), 'OAuth refused'));
    expect(res.body).toMatchObject({ failed: true });
    expect(res.body.error).toContain('invalid_client');
    expect(res.text).not.toContain('not-the-secret');
  });

  it('takes the error edge for a credential of another type or one that does not exist', async () => {
    const pg = await credential('A database', { host: '127.0.0.1', user: 'u', password: 'p', database: 'd' }, 'postgres');
    const wrongType = await run(await createAndDeploy(t, calling('/echo', pg), 'Wrong type'));
    expect(wrongType.body).toMatchObject({ failed: true, error: expect.stringContaining('needs http') });
    const missing = await run(await createAndDeploy(t, calling('/echo', 'cred_missing'), 'Missing credential'));
    expect(missing.body).toMatchObject({ failed: true, error: expect.stringContaining('not found') });
  });

  it('tests an http credential: OAuth2 fetches a token, the other schemes are applied to each request', async () => {
    const oauth = await credential('OAuth test', { scheme: 'oauth2', tokenUrl: `${base}/token`, clientId: 'sluice', clientSecret: SECRETS.clientSecret });
    const ok = await t.request('POST', `/api/v1/credentials/${oauth}/test`);
    expect(ok.body.data).toMatchObject({ ok: true, message: expect.stringContaining('Token received') });
    const bad = await credential('OAuth test bad', { scheme: 'oauth2', tokenUrl: `${base}/token`, clientId: 'sluice', clientSecret: 'nope-nope' });
    const refused = await t.request('POST', `/api/v1/credentials/${bad}/test`);
    expect(refused.body.data).toMatchObject({ ok: false, message: expect.stringContaining('invalid_client') });
    const bearer = await credential('Bearer test', { scheme: 'bearer', token: SECRETS.bearer });
    const applied = await t.request('POST', `/api/v1/credentials/${bearer}/test`);
    expect(applied.body.data).toEqual({ ok: true, message: 'bearer credential: applied to each request', durationMs: expect.any(Number) });
  });
});

describe('API block credential without SLUICE_ALLOW_PRIVATE_NETWORK', () => {
  it('refuses a token endpoint on a private address when testing the credential', async () => {
    const strict = await startTestApp({ SLUICE_ALLOW_PRIVATE_NETWORK: 'false' });
    try {
      const created = await strict.request('POST', '/api/v1/credentials', {
        body: {
          workspaceId: strict.workspaceId,
          name: 'Private OAuth',
          type: 'http',
          data: { scheme: 'oauth2', tokenUrl: `${base}/token`, clientId: 'sluice', clientSecret: SECRETS.clientSecret },
        },
      });
      const calls = tokenCalls;
      const tested = await strict.request('POST', `/api/v1/credentials/${created.body.data.id}/test`);
      expect(tested.body.data).toMatchObject({ ok: false, message: expect.stringMatching(/Refused to connect to 127\.0\.0\.1/) });
      expect(tokenCalls).toBe(calls);
    } finally {
      await strict.close();
    }
  });
});
