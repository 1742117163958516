// A raw HTTP/1.1 client for fuzzing. fetch normalises what a hostile client would not: it resolves `..`, encodes
// non-ASCII paths and cannot send invalid UTF-8 in a body. node:http writes the request line and headers as latin1,
// so a "binary" string (one char per byte) puts any bytes into the path, and bodies go out as the exact bytes given.
import { Agent, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';

const LAST_REQUEST = Symbol('last request');

export interface RawRequest {
  method: string;
  /** Sent as is: percent-escapes stay escapes; each char up to U+00FF is one byte (see binaryPath). */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Send the body with chunked transfer encoding instead of a Content-Length. */
  chunked?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** The UTF-8 bytes of `text` as a latin1 string, so node:http sends them unescaped (raw unicode in a path). */
export const binaryPath = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

export function createRawClient(baseUrl: string) {
  const { hostname, port } = new URL(baseUrl);
  // Keep-alive like a real client: a server that mishandles one request must not poison the next on the same socket.
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });

  function send(req: RawRequest): Promise<RawResponse> {
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
    const headers: Record<string, string> = { ...req.headers };
    if (body !== undefined && !req.chunked && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
      headers['content-length'] = String(body.length);
    }
    return new Promise((resolve, reject) => {
      let responded = false;
      const outgoing = httpRequest({ host: hostname, port, method: req.method, path: req.path, headers, agent }, (res) => {
        responded = true;
        const chunks: Buffer[] = [];
        let ended = false;
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('close', () => {
          if (!ended) reject(new Error(`the connection closed before the answer to ${req.method} ${req.path.slice(0, 100)} was complete`));
        });
        res.on('end', () => {
          ended = true;
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, text, json });
        });
      });
      // A server may answer an oversized body early and close the connection while the rest is still being written:
      // the answer is what counts, so a write error after it arrived is not a failure (before it, it is).
      let previous = 'none';
      outgoing.on('error', (err) => {
        const connection = outgoing.reusedSocket ? `a reused connection (its previous request: ${previous})` : 'a new connection';
        if (!responded) reject(new Error(`${err.message} (${req.method} ${req.path.slice(0, 100)}, no answer, on ${connection})`, { cause: err }));
      });
      outgoing.on('socket', (socket: Socket & { [LAST_REQUEST]?: { label: string; at: number } }) => {
        // Which request this connection carried before: the first thing to know when a reused connection fails.
        const last = socket[LAST_REQUEST];
        if (last) previous = `${last.label}, ${Math.round(performance.now() - last.at)} ms ago`;
        // Once per connection (a kept-alive socket carries many requests): the request's own handler reports errors.
        if (!last) socket.on('error', () => undefined);
        socket[LAST_REQUEST] = { label: `${req.method} ${req.path.slice(0, 100)}`, at: performance.now() };
      });
      if (body !== undefined) outgoing.write(body, () => undefined);
      outgoing.end();
    });
  }

  return { send, close: () => agent.destroy() };
}

export type RawClient = ReturnType<typeof createRawClient>;
