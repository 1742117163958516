// HTTP tools: the model's arguments fill `<args.x>` in a configured request, which is sent through the same guarded
// network path as the API block (SSRF policy, retries, time-outs). A non-2xx answer or a target that cannot be
// reached is an error result for the model, not a failed run.
import { STATUS_CODES } from 'node:http';
import type { AgentTool } from '../../llm/tools.js';
import { SLUICE_VERSION } from '../../version.js';
import { findReferences, getPath, resolveValue, stringifyForTemplate } from '../../workflow/index.js';
import { sendWithCredential } from '../credential-request.js';
import type { BlockServices } from '../types.js';
import { toolApproval, type HttpToolConfig } from './config.js';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** What the model reads of a response body; a longer one is cut, so one tool call cannot fill its context. */
const MAX_RESULT_CHARS = 100_000;

/** Only `<args.…>` is left in the request by the time it gets here (the engine filled every other reference). */
function fillArgs(value: unknown, args: unknown): unknown {
  return resolveValue(value, {
    block: (ref) => (ref.name === 'args' ? (getPath(args, ref.path) ?? null) : null),
    env: () => '',
  });
}

/**
 * The URL is filled in with each argument URL-encoded when it is part of a longer text: the model's `../admin` or
 * `x?role=owner` stays one path segment or query value instead of reshaping the request (a whole-URL `<args.url>` is
 * taken as it is, and every URL is still held to the network policy).
 */
function fillUrl(url: string, args: unknown): string {
  const references = findReferences(url).filter((ref) => ref.kind === 'block' && ref.name === 'args');
  if (references.length === 1 && references[0]!.start === 0 && references[0]!.end === url.length) {
    return stringifyForTemplate(fillArgs(url, args));
  }
  let filled = '';
  let cursor = 0;
  for (const ref of references) {
    if (ref.kind !== 'block') continue;
    filled += url.slice(cursor, ref.start) + encodeURIComponent(stringifyForTemplate(getPath(args, ref.path) ?? ''));
    cursor = ref.end;
  }
  return filled + url.slice(cursor);
}

function parseBody(body: Buffer, contentType: string | undefined): unknown {
  const text = body.toString('utf8').slice(0, MAX_RESULT_CHARS);
  if (contentType && /[/+]json\b/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export function httpTool(config: HttpToolConfig, services: BlockServices): AgentTool {
  return {
    name: config.name,
    description: config.description,
    parameters: config.parameters,
    ...toolApproval(config),
    async call(args, { signal }) {
      const { url: rawUrl, ...rest } = config.request;
      const request = { ...(fillArgs(rest, args) as Omit<HttpToolConfig['request'], 'url'>), url: fillUrl(stringifyForTemplate(rawUrl), args) };
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        throw new Error(`The tool's URL is not an absolute URL: ${JSON.stringify(request.url)}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('The tool\'s URL must use http or https');
      for (const [key, value] of Object.entries(request.query)) url.searchParams.append(key, stringifyForTemplate(value));
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(request.headers)) headers[key] = stringifyForTemplate(value);
      const has = (name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name);
      if (!has('user-agent')) headers['User-Agent'] = `Sluice/${SLUICE_VERSION}`;
      let body: string | undefined;
      if (METHODS_WITH_BODY.has(request.method) && request.body !== undefined && request.body !== null) {
        body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
        if (!has('content-type')) headers['Content-Type'] = 'application/json';
      }
      // A stored credential's auth goes on the request here, never through the model: it sees only the answer.
      const response = await sendWithCredential(services, signal, config.credentialId, {
        url,
        method: request.method,
        headers,
        body,
        timeoutMs: config.timeoutMs,
        retries: config.retries,
      });
      if (response.status === 0) throw new Error(`The request failed: ${response.error ?? 'no response'}`);
      const data = parseBody(response.body, response.headers['content-type']);
      if (response.error) throw new Error(`The request failed: ${response.error}`);
      if (response.status < 200 || response.status > 299) {
        const reason = response.statusText || STATUS_CODES[response.status] || 'Unknown status';
        throw new Error(`HTTP ${response.status} ${reason}: ${stringifyForTemplate(data).slice(0, 2000)}`);
      }
      return { status: response.status, data };
    },
  };
}
