// GET /docs: the interactive API reference (Scalar) is served by the app itself — the page, Scalar's bundle and the
// script that starts it — with no key and nothing loaded from another origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The `src` of every script tag, resolved against the page as a browser would. */
function scriptUrls(html: string, page: string): string[] {
  return [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map(([, src]) => new URL(src!, page).pathname);
}

describe('GET /docs', () => {
  it('answers an HTML page that loads Scalar and its start script from this server, without a key', async () => {
    const res = await t.request('GET', '/docs', { apiKey: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(res.text).not.toMatch(/https?:\/\//);
    expect(scriptUrls(res.text, `${t.url}/docs`)).toEqual(['/docs/scalar.js', '/docs/init.js']);
  });

  it('serves Scalar\'s standalone bundle as JavaScript', async () => {
    const res = await t.request('GET', '/docs/scalar.js', { apiKey: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.text.length).toBeGreaterThan(100_000);
    expect(res.text).toContain('createApiReference');
  });

  it('starts Scalar on the document with everything that would leave the server switched off', async () => {
    const res = await t.request('GET', '/docs/init.js', { apiKey: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.text).toContain('Scalar.createApiReference(');
    expect(new URL(/"url":"([^"]+)"/.exec(res.text)![1]!, `${t.url}/docs`).pathname).toBe('/api/openapi.json');
    expect(res.text).toContain('"withDefaultFonts":false');
    expect(res.text).not.toMatch(/https?:\/\//);
    expect((await t.request('GET', '/api/openapi.json', { apiKey: null })).status).toBe(200);
  });

  it('is not shadowed by the web app: an unknown path under /docs is the JSON 404', async () => {
    const res = await t.request('GET', '/docs/nothing-here', { apiKey: null });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});
