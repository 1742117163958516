// Every route with odd path parameters (one parameter at a time, the others pointing at real resources), every route
// with hostile query strings and repeated parameters, every kind of authentication, unicode paths the app has no
// route for, and methods a route does not take. Each answer must have the fuzz properties (checks.ts); the server
// must still serve after each route's cases.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/http/openapi.js';
import { binaryPath } from './support/client.js';
import { assertEveryRunLogged, assertStillServing, fuzzParameters, RunLedger, sendChecked } from './support/checks.js';
import { startFuzzFixture, type FuzzFixture } from './support/fixture.js';
import { forgedCursor, ODD_QUERIES, ODD_SEGMENTS, UNSTORABLE_QUERY_VALUES } from './support/inputs.js';
import { aimedRequest } from './support/requests.js';
import { fillPath, FUZZ_ROUTES, paramNames, picksOf, readsQuery, sampleFor, type AuthName, type FuzzRoute } from './support/routes.js';

let f: FuzzFixture;
const ledger = new RunLedger();
/** Generous: the machine is shared, and a property's many requests slow down with it (no timing is asserted). */
const SLOW_TEST_MS = 180_000;
beforeAll(async () => {
  f = await startFuzzFixture('paths');
});
afterAll(async () => f?.close());

const label = (route: FuzzRoute) => `${route.method} ${route.pattern}`;

/** The route's path with `name` set to `segment` and every other parameter at its first known value. */
function pathWith(route: FuzzRoute, name: string, segment: string) {
  const values: Record<string, string> = {};
  for (const [param, pool] of Object.entries(route.params ?? {})) values[param] = f.pools[pool][0]!;
  values[name] = segment;
  return fillPath(route.pattern, values);
}

const DOT_SEGMENTS = new Set(['.', '..', '%2e%2e']);

/** Sign-out ends the member's session, which the other cases use: it gets a session of its own below. */
const isSignOut = (route: FuzzRoute) => route.pattern === '/api/v1/auth/sign-out';

describe('odd path parameters', () => {
  for (const route of FUZZ_ROUTES.filter((r) => paramNames(r.pattern).length > 0)) {
    it(label(route), async () => {
      for (const name of paramNames(route.pattern)) {
        for (const segment of ODD_SEGMENTS) {
          const base = aimedRequest(f, route);
          const query = base.path.includes('?') ? base.path.slice(base.path.indexOf('?')) : '';
          const res = await sendChecked(f, ledger, { ...base, path: pathWith(route, name, segment) + query });
          // Nothing odd names a real resource, so never a success; except dot segments, which URL normalisation
          // removes (`/webhooks/./deliveries/…` is `/webhooks/deliveries/…`, a route of its own).
          if (DOT_SEGMENTS.has(segment)) continue;
          expect(res.status, `${label(route)} ${name}=${JSON.stringify(segment.slice(0, 40))}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        }
      }
      await assertStillServing(f, label(route));
    });
  }
});

describe('hostile query strings', () => {
  for (const route of FUZZ_ROUTES.filter((r) => !isSignOut(r))) {
    it(label(route), async () => {
      const valid = route.query?.(f);
      // Alone and after the valid query; and the valid query with every parameter given twice.
      const odd = readsQuery(route) ? ODD_QUERIES : ODD_QUERIES.filter((_, i) => i % 4 === 0);
      const queries = sampleFor(route, [...odd, ...(valid ? [...odd.map((q) => `${valid}&${q}`), `${valid}&${valid}`] : [])]);
      for (const query of queries) await sendChecked(f, ledger, aimedRequest(f, route, { query }));
      await assertStillServing(f, label(route));
    });
  }
});

/** The query parameters the OpenAPI document gives each operation, by `METHOD pattern` in Hono's spelling. */
const DOCUMENTED_QUERIES = (() => {
  const doc = openApiDocument('http://fuzz.test') as {
    paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>;
  };
  const byRoute = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const names = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      if (names.length > 0) byRoute.set(`${method.toUpperCase()} ${path}`, names);
    }
  }
  return byRoute;
})();
const operationOf = (route: FuzzRoute) => `${route.method} ${route.pattern.replace(/:([A-Za-z]+)(\{[^}]*\})?/g, '{$1}')}`;
const documentedQuery = (route: FuzzRoute) => DOCUMENTED_QUERIES.get(operationOf(route)) ?? [];

/** The route's valid query with `name` set to `value` (already encoded), every other parameter as it was. */
function queryWith(route: FuzzRoute, name: string, value: string): string {
  const kept = (route.query?.(f) ?? '').split('&').filter((pair) => pair !== '' && pair.split('=')[0] !== name);
  return [...kept, `${name}=${value}`].join('&');
}

describe('values the database cannot store, in every documented query parameter', () => {
  const routes = FUZZ_ROUTES.filter((r) => documentedQuery(r).length > 0);

  it('covers every operation the OpenAPI document gives a query', () => {
    expect(routes.map(operationOf).sort()).toEqual([...DOCUMENTED_QUERIES.keys()].sort());
  });

  for (const route of routes) {
    it(label(route), async () => {
      for (const name of documentedQuery(route)) {
        for (const value of UNSTORABLE_QUERY_VALUES) await sendChecked(f, ledger, aimedRequest(f, route, { query: queryWith(route, name, value) }));
      }
      await assertStillServing(f, label(route));
    }, SLOW_TEST_MS);
  }

  it('forged cursors of every shape, in every route that takes one', async () => {
    const cursorRoutes = routes.filter((r) => documentedQuery(r).includes('cursor'));
    expect(cursorRoutes.map(label).sort()).toEqual([
      'GET /api/v1/logs',
      'GET /api/v1/workflows/:workflowId/memories',
      'GET /api/v1/workflows/:workflowId/memories/:key',
      'GET /api/v1/workflows/:workflowId/webhooks/:subscriptionId/deliveries',
    ]);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cursorRoutes), forgedCursor, async (route, cursor) => {
        await sendChecked(f, ledger, aimedRequest(f, route, { query: queryWith(route, 'cursor', cursor) }));
      }),
      fuzzParameters(150),
    );
    await assertStillServing(f, 'forged cursors');
  }, SLOW_TEST_MS);
});

describe('authentication', () => {
  const bogus: Record<string, Record<string, string>> = {
    'unknown key': { 'x-api-key': 'sk-sluice-0000000000000000000000000000000' },
    'empty key': { 'x-api-key': '' },
    'latin1 key': { 'x-api-key': binaryPath('sk-sluice-ä€') },
    'huge key': { 'x-api-key': 'k'.repeat(8_000) },
    'key and a session': { 'x-api-key': 'nope', cookie: 'sluice_session=nope' },
    'odd cookies': { cookie: `sluice_session=%ED%A0%80; sluice_session=x; =; ${'a'.repeat(4_000)}=1` },
    'csrf without a session': { 'x-csrf-token': 'x' },
  };

  const routes = FUZZ_ROUTES.filter((r) => !isSignOut(r));
  for (const [index, route] of routes.entries()) {
    it(label(route), async () => {
      const named: AuthName[] = ['adminKey', 'personalKey', 'outsiderKey', 'memberSession', 'memberSessionWithoutCsrf', 'none'];
      // Bogus credentials all stop in the one authentication middleware: every third route gets them.
      const all = [...named.map((name) => f.auth[name]), ...(index % 3 === 0 ? Object.values(bogus) : [])];
      const headerSets = sampleFor(route, all);
      for (const pick of picksOf(route)) {
        for (const headers of headerSets) {
          const req = aimedRequest(f, route, { pick });
          // Replace the route's own authentication with this one.
          const own = Object.keys(f.auth[route.auth ?? 'personalKey']);
          const rest = Object.fromEntries(Object.entries(req.headers ?? {}).filter(([h]) => !own.includes(h)));
          const res = await sendChecked(f, ledger, { ...req, headers: { ...rest, ...headers } });
          // The public chat takes anyone; a private one takes only a key or a session of the workspace.
          if (route.pattern === '/api/chat/:workflowId' && Object.keys(headers).length === 0) {
            expect(res.status, res.text).toBe(pick === 1 ? 200 : 401);
          }
        }
      }
      await assertStillServing(f, label(route));
    });
  }

  it('sign-out: with the member session (last), a bogus cookie, and nothing', async () => {
    const route = FUZZ_ROUTES.find(isSignOut)!;
    for (const headers of [{}, ...Object.values(bogus), f.auth.memberSession]) {
      const res = await sendChecked(f, ledger, { method: route.method, path: route.pattern, headers });
      expect(res.status).toBe(204);
    }
    const after = await sendChecked(f, ledger, { method: 'GET', path: '/api/v1/auth/session', headers: f.auth.memberSession });
    expect(after.status).toBe(401);
  });
});

describe('paths and methods without a route', () => {
  // API paths only: everything else belongs to the web app (test/web).
  const odd = [
    '/api',
    '/api/',
    '/api/v1/',
    '/api/v2/workflows',
    binaryPath('/api/v1/wörkflows'),
    binaryPath('/api/v1/workflows/😀/deploy/😀'),
    '/api/v1/workflows/%F0%9F%98%80/nope',
    '/api/%ED%A0%80',
    '/api/v1/%00',
    '/api/v1/logs/executions/',
    '/api/webhooks/trigger/',
    '/api/webhooks/trigger/%2F%2F',
    '/api/webhooks/trigger/a/../../../v1/me',
    '/api/files/',
    '/api/chat/',
    '/api/v1/me/',
    '/api/v1/me?',
    `/api/${'a/'.repeat(2_000)}`,
    '/health/../api/v1/me',
    '/health/%2e%2e/api/v1/me',
  ];

  it('odd paths', async () => {
    for (const path of odd) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        await sendChecked(f, ledger, { method, path, headers: f.auth.personalKey, body: method === 'POST' ? '{}' : undefined });
      }
    }
    await assertStillServing(f, 'odd paths');
  });

  it('every route with the methods it does not take', async () => {
    for (const route of FUZZ_ROUTES.filter((r) => !isSignOut(r))) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE']) {
        // HEAD is answered by a GET route (Hono), so it is not "a method the route does not take" there.
        const taken = FUZZ_ROUTES.some((r) => r.pattern === route.pattern && (r.method === method || (method === 'HEAD' && r.method === 'GET')));
        if (taken) continue;
        const req = aimedRequest(f, route);
        const res = await sendChecked(f, ledger, { ...req, method, body: method === 'GET' || method === 'HEAD' ? undefined : req.body });
        expect(res.status, `${method} ${route.pattern}`).toBeGreaterThanOrEqual(400);
      }
    }
    await assertStillServing(f, 'methods without a route');
  });
});

describe('afterwards', () => {
  it('every run answered with an execution id has exactly one log, and none is left running', async () => {
    expect(ledger.executionIds.size).toBeGreaterThan(10);
    await assertEveryRunLogged(f, ledger);
  }, SLOW_TEST_MS);
});
