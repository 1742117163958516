// The API block: one outbound HTTP request per run, through the guarded network layer, exposing the response to later
// blocks. HTTP failures are data, not exceptions: the block reports them in `error` and workflows branch on `status`.
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { SLUICE_VERSION } from '../version.js';
import { withOperation } from './api-operation.js';
import { CredentialUnusableError, sendWithCredential, stringifyValue, withQueryParams } from './credential-request.js';
import { apiForm } from './forms.js';
import { defineBlock } from './define-block.js';
import type { BlockResult } from './types.js';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
const METHODS_WITH_BODY = new Set<string>(['POST', 'PUT', 'PATCH']);

// Values may be anything once references are resolved (numbers, objects); they are stringified when sent.
const keyValueSchema = z.object({ key: z.string(), value: z.unknown() });

export const apiBlockConfigSchema = z
  .object({
    url: z.string().optional().describe("The request URL; with an operation, when set it replaces the document's server URL"),
    method: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(METHODS)).default('GET'),
    queryParams: z.array(keyValueSchema).default([]),
    headers: z.array(keyValueSchema).default([]),
    body: z.unknown().optional(),
    timeoutMs: z.coerce.number().int().positive().max(300_000).default(30_000),
    retries: z.coerce.number().int().min(0).max(10).default(3),
    operation: z
      .strictObject({ connectorId: z.string().min(1), operationId: z.string().min(1) })
      .optional()
      .describe('An operation of an imported OpenAPI document (docs/api.md "Connectors (OpenAPI)"); it sets the method, URL, query, headers and body'),
    parameters: z.record(z.string(), z.unknown()).optional().describe("The operation's path, query and header parameters by name, and `body`"),
    /** An `http` credential of the workspace whose auth is applied to the request (docs/workflows.md "API"). */
    credentialId: z.string().optional(),
  })
  .superRefine((config, ctx) => {
    if (config.url === undefined && config.operation === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'Required' });
  });

export type ApiBlockConfig = z.infer<typeof apiBlockConfigSchema>;

/** Header names are case-insensitive: a later entry replaces an earlier one with the same name in any case. */
function buildHeaders(entries: ApiBlockConfig['headers']): Record<string, string> {
  const byLowerName = new Map<string, [string, string]>();
  for (const { key, value } of entries) {
    const name = key.trim();
    if (name !== '') byLowerName.set(name.toLowerCase(), [name, stringifyValue(value)]);
  }
  return Object.fromEntries(byLowerName.values());
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

function parseResponseBody(body: Buffer, contentType: string | undefined): unknown {
  const text = body.toString('utf8');
  if (contentType && /[/+]json\b/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      // A server that mislabels its body still gets its text through rather than failing the block.
      return text;
    }
  }
  return text;
}

function failure(error: string): BlockResult {
  return { output: { data: null, status: 0, headers: {}, error } };
}

function parseAbsoluteHttpUrl(input: string): URL | string {
  try {
    const url = new URL(input);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
    return `API block URL must use http or https, got "${url.protocol.slice(0, -1)}"`;
  } catch {
    const shown = input.length > 120 ? `${input.slice(0, 120)}…` : input;
    return `API block URL must be an absolute http(s) URL, got "${shown}"`;
  }
}

export const apiBlock = defineBlock<ApiBlockConfig>(apiForm, {
  configSchema: apiBlockConfigSchema,
  // The body is sent as it is; the schema's refinement reads only url and operation.
  dataFields: ['body'],
  async run(ctx) {
    const config = await withOperation(ctx.config, ctx.services);
    if (typeof config === 'string') return failure(config);
    const parsed = parseAbsoluteHttpUrl((config.url ?? '').trim());
    if (typeof parsed === 'string') return failure(parsed);
    const url = withQueryParams(parsed, config.queryParams);

    const headers = buildHeaders(config.headers);
    // Servers (and their operators) see who calls them; a User-Agent the workflow sets wins.
    if (!hasHeader(headers, 'user-agent')) headers['User-Agent'] = `Sluice/${SLUICE_VERSION}`;
    // A re-run's repeat of a call the original made carries a key the upstream can recognise; the workflow's own wins.
    if (ctx.idempotencyKey !== undefined && !hasHeader(headers, 'idempotency-key')) headers['Idempotency-Key'] = ctx.idempotencyKey;
    let body: string | undefined;
    if (METHODS_WITH_BODY.has(config.method) && config.body !== undefined && config.body !== null) {
      body = typeof config.body === 'string' ? config.body : JSON.stringify(config.body);
      if (!hasHeader(headers, 'content-type')) headers['Content-Type'] = 'application/json';
    }

    // The credential's auth is applied over the block's own headers and never shown: the span records the block's
    // config (which holds only the credential's id), and errors have the credential's secrets redacted.
    let response;
    try {
      response = await sendWithCredential(ctx.services, ctx.signal, config.credentialId, {
        url,
        method: config.method,
        headers,
        body,
        timeoutMs: config.timeoutMs,
        retries: config.retries,
      });
    } catch (error) {
      if (error instanceof CredentialUnusableError) return { ...failure(error.message), continueOnError: true };
      throw error;
    }

    // Once a request was attempted, its outcome (non-2xx or transport failure) is data for the workflow to branch
    // on via <api.status>; only an unusable configuration (bad URL above) fails the block outright.
    if (response.status === 0) return { ...failure(response.error ?? 'Request failed'), continueOnError: true };
    const output: Record<string, unknown> = {
      data: response.error ? null : parseResponseBody(response.body, response.headers['content-type']),
      status: response.status,
      headers: response.headers,
    };
    if (response.error) {
      output.error = response.error;
    } else if (response.status < 200 || response.status > 299) {
      const reason = response.statusText || STATUS_CODES[response.status] || 'Unknown status';
      output.error = `HTTP ${response.status}: ${reason}`;
    }
    return { output, continueOnError: true };
  },
});
