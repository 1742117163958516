// The response block: what the execute endpoint answers with instead of the default result (docs/api.md 4.3).
import { z } from 'zod';
import { responseForm } from './forms.js';
import { defineBlock } from './define-block.js';
import { toText } from './values.js';

const headerListSchema = z.array(z.object({ key: z.string(), value: z.unknown() }));
const STATUS_MESSAGE = 'must be an HTTP status (100-599)';

export const responseConfigSchema = z.object({
  // Coerced because a status often arrives through a reference inside text, e.g. "<api.status>".
  status: z.coerce.number().int(STATUS_MESSAGE).min(100, STATUS_MESSAGE).max(599, STATUS_MESSAGE).default(200),
  headers: z.union([headerListSchema, z.record(z.string(), z.unknown())]).default([]),
  body: z.unknown().optional(),
});
export type ResponseConfig = z.infer<typeof responseConfigSchema>;

/** RFC 9110 token: the characters an HTTP header name is made of. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a header value can carry on the wire: tab, visible ASCII and Latin-1; never CR, LF, NUL or anything past U+00FF. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** How the body is framed and the connection kept is the server's business; a workflow's value would corrupt it. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'proxy-connection']);

/**
 * The headers as the HTTP answer will carry them. A name or value HTTP cannot carry fails the block with a message
 * naming it (the value often comes from a reference: a caller's newline must not become a header of its own);
 * framing headers — common when a workflow forwards an upstream response's headers — are left to the server.
 */
function headerObject(headers: ResponseConfig['headers']): Record<string, string> {
  const entries = Array.isArray(headers)
    ? headers.map(({ key, value }) => [key, value] as const)
    : Object.entries(headers);
  const result: Record<string, string> = {};
  for (const [key, value] of entries) {
    const name = key.trim();
    if (name === '' || FRAMING_HEADERS.has(name.toLowerCase())) continue;
    if (!HEADER_NAME.test(name)) throw new Error(`Response header name ${JSON.stringify(name)} is not a valid HTTP header name`);
    const text = toText(value);
    if (!HEADER_VALUE.test(text)) {
      throw new Error(`Response header ${name} has a value HTTP cannot carry (line breaks, NUL, or characters beyond Latin-1)`);
    }
    result[name] = text;
  }
  return result;
}

export const responseBlock = defineBlock<ResponseConfig>(responseForm, {
  configSchema: responseConfigSchema,
  // The body is answered as it is (status and headers are checked: a reference there is checked per run).
  dataFields: ['body'],
  // Has no effect outside the run: after a pause it runs again rather than being replayed.
  replay: 'rerun',
  async run(ctx) {
    const { status, headers, body } = ctx.config;
    return { output: { status, headers: headerObject(headers), body: body ?? null } };
  },
});
