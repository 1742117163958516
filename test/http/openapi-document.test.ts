// The OpenAPI document (src/http/openapi.ts) is whole and valid: every route the app registers is described (and
// nothing else), the document passes a standard OpenAPI 3.1 validator with every $ref resolving, and the headers,
// security and error answers the server really gives are documented where they apply, and every success answer with
// a body names its schema. Real bodies are checked against the response schemas by openapi-responses.test.ts.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { openApiDocument } from '../../src/http/openapi.js';
import type { AppContext } from '../../src/services/app-context.js';

/**
 * Routes the app registers that are not part of the API it documents, each with its reason. (The web app's static
 * files and its single-page fallback are middleware, `ALL` routes, and are left out with the other middleware.)
 */
const NOT_API: Record<string, string> = {
  'GET /docs': 'the interactive reference page (HTML) that renders this document',
  'GET /docs/init.js': 'the script that starts the reference page',
  'GET /docs/scalar.js': "Scalar's browser bundle for the reference page",
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = Record<string, any>;

const doc = openApiDocument('http://localhost:3000') as Json;

/** Hono's `:param` (and `:param{regex}`) as OpenAPI's `{param}`. */
const toOpenApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');

function registeredRoutes(): string[] {
  // Building the app only wires handlers; none of them runs, so no context is needed.
  const app = createApp({} as AppContext);
  const routes = app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${toOpenApiPath(r.path)}`);
  return [...new Set(routes)].sort();
}

function documentedOperations(): Array<{ key: string; path: string; method: string; op: Json }> {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ key: `${method.toUpperCase()} ${path}`, path, method, op: item[method] as Json })),
  );
}

/** Follows a local `$ref` (`#/components/…`). */
function resolve(value: Json): Json {
  if (typeof value?.$ref !== 'string') return value;
  const target = (value.$ref as string)
    .replace(/^#\//, '')
    .split('/')
    .reduce<Json | undefined>((node, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  expect(target, `${value.$ref} resolves`).toBeDefined();
  return resolve(target!);
}

const headerNames = (response: Json) => Object.keys(resolve(response).headers ?? {});
const parameterNames = (op: Json) => (op.parameters as Json[]).map((p) => resolve(p)).map((p) => `${p.in}:${p.name}`);
const op = (method: string, path: string) => doc.paths[path][method] as Json;

describe('the OpenAPI document', () => {
  it('describes every route the app registers, and no route it does not have', () => {
    const registered = registeredRoutes();
    expect(registered.length).toBeGreaterThan(50);
    const api = registered.filter((r) => !(r in NOT_API));
    const documented = documentedOperations().map((o) => o.key).sort();
    expect(api.filter((r) => !documented.includes(r)), 'routes missing from the document').toEqual([]);
    expect(documented.filter((r) => !api.includes(r)), 'documented routes the app does not have').toEqual([]);
    expect(Object.keys(NOT_API).filter((r) => !registered.includes(r)), 'stale exclusions').toEqual([]);
  });

  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
    // Every $ref anywhere in the document points at something.
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        if (typeof (node as Json).$ref === 'string' && (node as Json).$ref.startsWith('#/')) resolve(node as Json);
        Object.values(node).forEach(walk);
      }
    };
    walk(doc);
  });

  it('documents X-Request-Id on every response, and the Error body on every error response', () => {
    // A failed run answers its own body, which has the Error fields (error, code) too.
    const failures = ['ExecuteFailure', 'ChatFailure', 'RerunFailure'];
    const errorBodies = ['#/components/schemas/Error', ...failures.map((name) => `#/components/schemas/${name}`)];
    for (const name of failures) expect(doc.components.schemas[name].required, name).toEqual(expect.arrayContaining(['error', 'code']));
    for (const { key, op: operation } of documentedOperations()) {
      expect(operation.summary, key).toBeTruthy();
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        expect(headerNames(response as Json), `${key} ${status}`).toContain('X-Request-Id');
        // The readiness report (503) is a probe's answer, not an error.
        if ((status === 'default' || Number(status) >= 400) && !(key === 'GET /ready' && status === '503')) {
          const schema = resolve(response as Json).content?.['application/json']?.schema;
          expect(errorBodies, `${key} ${status} is an Error`).toContain(schema?.$ref);
        }
      }
    }
  });

  it('documents the body of every success answer that has one', () => {
    const undocumented = documentedOperations().flatMap(({ key, op: operation }) =>
      Object.entries(operation.responses as Json)
        .filter(([status, response]) => /^2\d\d$/.test(status) && status !== '204' && !(response as Json).content)
        .map(([status]) => `${key} ${status}`),
    );
    expect(undocumented).toEqual([]);
  });

  it('states who may call each operation', () => {
    const schemes = Object.keys(doc.components.securitySchemes).sort();
    expect(schemes).toEqual(['apiKey', 'metricsToken', 'sessionCookie']);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'sluice_session' });
    for (const { key, op: operation } of documentedOperations()) {
      expect(Array.isArray(operation.security), key).toBe(true);
      const requiresCredentials = operation.security.length > 0 && !operation.security.some((s: Json) => Object.keys(s).length === 0);
      // Whoever needs credentials can be refused for lacking them.
      if (requiresCredentials) expect(Object.keys(operation.responses), key).toContain('401');
    }
    expect(op('get', '/api/v1/workflows').security).toEqual([{ apiKey: [] }, { sessionCookie: [] }]);
    expect(op('get', '/health').security).toEqual([]);
    expect(op('post', '/api/webhooks/trigger/{path}').security).toEqual([]);
    expect(op('get', '/api/v1/auth/session').security).toEqual([{ sessionCookie: [] }]);
    expect(op('post', '/api/chat/{workflowId}').security).toContainEqual({});
  });

  it('documents the request headers of the run endpoints', () => {
    expect(parameterNames(op('post', '/api/workflows/{workflowId}/execute'))).toEqual(
      expect.arrayContaining(['path:workflowId', 'header:X-Execution-Mode', 'header:Idempotency-Key', 'header:X-Request-Id']),
    );
    expect(parameterNames(op('post', '/api/chat/{workflowId}'))).toContain('header:X-Request-Id');
    expect(parameterNames(op('post', '/api/webhooks/trigger/{path}'))).toContain('header:X-Request-Id');
  });

  it('documents X-Execution-Id and the rate limit headers where the server sends them', () => {
    const rate = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
    for (const [method, path] of [
      ['post', '/api/workflows/{workflowId}/execute'],
      ['post', '/api/chat/{workflowId}'],
      ['post', '/api/webhooks/trigger/{path}'],
    ] as const) {
      const responses = op(method, path).responses as Json;
      expect(headerNames(responses['200']), path).toEqual(expect.arrayContaining(['X-Execution-Id', ...rate]));
      expect(headerNames(responses['429']), path).toEqual(expect.arrayContaining(['Retry-After', ...rate]));
    }
    const execute = op('post', '/api/workflows/{workflowId}/execute').responses as Json;
    for (const status of ['202', '500']) expect(headerNames(execute[status]), status).toContain('X-Execution-Id');
    expect(headerNames(op('post', '/api/chat/{workflowId}').responses['200'])).toContain('X-Conversation-Id');
    for (const path of ['/api/v1/logs', '/api/v1/logs/{logId}', '/api/v1/logs/executions/{executionId}']) {
      const responses = op('get', path).responses as Json;
      expect(headerNames(responses['200']), path).toEqual(expect.arrayContaining(rate));
      expect(headerNames(responses['429']), path).toContain('Retry-After');
    }
    expect(headerNames(op('post', '/api/v1/auth/sign-in').responses['429'])).toContain('Retry-After');
    expect(doc.components.headers['X-RateLimit-Reset'].schema).toEqual({ type: 'string', format: 'date-time' });
  });

  it('documents the error answers that apply to each operation', () => {
    const statuses = (method: string, path: string) => Object.keys(op(method, path).responses as Json);
    // A body: validation and size; a path id: validation and not found; a key: 401 and 403.
    expect(statuses('post', '/api/v1/workflows')).toEqual(expect.arrayContaining(['201', '400', '401', '403', '413', 'default']));
    expect(statuses('get', '/api/v1/workflows/{workflowId}')).toEqual(expect.arrayContaining(['400', '401', '403', '404']));
    expect(statuses('post', '/api/workflows/{workflowId}/execute')).toEqual(
      expect.arrayContaining(['200', '202', '400', '401', '402', '403', '404', '408', '409', '413', '429', '500']),
    );
    expect(statuses('post', '/api/v1/executions/{executionId}/resume')).toContain('409');
    expect(statuses('post', '/api/v1/auth/sign-in')).toEqual(expect.arrayContaining(['400', '401', '413', '415', '429']));
    // Nothing is claimed where it cannot happen.
    expect(statuses('get', '/health')).toEqual(['200', 'default']);
    expect(statuses('get', '/api/v1/me')).not.toContain('404');
    expect(statuses('get', '/api/v1/me')).not.toContain('413');
    expect(doc.components.responses.BadRequest.description).toMatch(/VALIDATION_ERROR/);
  });
});
