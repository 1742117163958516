// One HTTP exchange of an outbound attempt, straight on the dispatcher: the request out, the response's head, and
// its body read into memory under a size cap — stopping (and closing the connection) as soon as the cap is crossed
// instead of buffering an arbitrarily large upstream response. undici's `request()` would wrap the body in a stream,
// the handler in an async resource and the caller's signal in a listener, for a body read whole into memory anyway;
// here the chunks are kept as they come, and the attempt stops the exchange itself (a time-out, the caller's abort).
import type { Dispatcher } from 'undici';

/** How much of a redirect's own body is read (and thrown away) to keep its connection; more closes it instead. */
const REDIRECT_BODY_LIMIT = 128 * 1024;

export interface ExchangeRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** undici's own headers and body time-outs (the attempt's timer bounds the whole exchange). */
  timeoutMs: number;
  /** A larger body is cut off; a larger declared length is refused before a byte is read. */
  maxBodyBytes: number;
  /** Says, from the status and the head, that the body is not wanted (a redirect): it is read and dropped. */
  discardsBody(status: number, headers: Record<string, string>): boolean;
}

export interface ExchangeResponse {
  status: number;
  statusText: string;
  /** Lowercase names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Each Location line's value, in order (`headers.location` joins them, which is no URL when there are two). */
  locations: readonly string[];
  body: Buffer;
  /** True when the body was longer than the cap; `body` then holds only its first maxBodyBytes bytes. */
  exceeded: boolean;
}

/** Stops an exchange under way: before it is connected the stop waits for the connection, as undici's own does. */
export class ExchangeStop {
  private reason: Error | undefined;
  private abortExchange: ((reason: Error) => void) | undefined;

  stop(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.abortExchange?.(reason);
  }

  /** @internal Called by the exchange once connected; the stop asked before then applies now. */
  connected(abort: (reason: Error) => void): void {
    this.abortExchange = abort;
    if (this.reason) abort(this.reason);
  }
}

/** Lowercase names; a repeated header's values joined with ", " (latin1, as undici decodes them). */
function headersOf(raw: Buffer[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1').toLowerCase();
    const value = raw[i + 1]!.toString('latin1');
    const earlier = Object.hasOwn(headers, name) ? headers[name] : undefined;
    headers[name] = earlier === undefined ? value : `${earlier}, ${value}`;
  }
  return headers;
}

const NO_LOCATIONS: readonly string[] = Object.freeze([]);

/** The values of every line of the header `name` (lowercase), in the order they came. */
function valuesOf(raw: Buffer[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === name.length && raw[i]!.toString('latin1').toLowerCase() === name) values.push(raw[i + 1]!.toString('latin1'));
  }
  return values;
}

export function exchange(dispatcher: Dispatcher, request: ExchangeRequest, stop: ExchangeStop): Promise<ExchangeResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let abort: ((reason: Error) => void) | undefined;
    let head: Omit<ExchangeResponse, 'body' | 'exceeded'> | undefined;
    let discarding = false;
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (exceeded: boolean) => {
      settled = true;
      const body = chunks.length === 1 && !exceeded ? chunks[0]! : Buffer.concat(chunks);
      resolve({ ...head!, body, exceeded });
    };
    /** Ends the exchange early, closing its connection; the error undici then reports is expected. */
    const close = () => abort?.(new Error('Response body not read to its end'));
    const handler: Dispatcher.DispatchHandler = {
      onConnect(abortExchange) {
        abort = abortExchange;
        stop.connected(abortExchange);
      },
      onHeaders(status, rawHeaders, _resume, statusText) {
        // Interim (1xx) answers come before the real one.
        if (status < 200) return true;
        const headers = headersOf(rawHeaders);
        head = { status, statusText, headers, locations: headers.location === undefined ? NO_LOCATIONS : valuesOf(rawHeaders, 'location') };
        discarding = request.discardsBody(status, headers);
        const declared = headers['content-length'];
        if (!discarding && declared !== undefined && Number(declared) > request.maxBodyBytes) {
          finish(true);
          close();
        }
        return true;
      },
      onData(chunk) {
        if (settled) return true;
        if (discarding) {
          received += chunk.length;
          if (received > REDIRECT_BODY_LIMIT) {
            finish(false);
            close();
          }
          return true;
        }
        if (received + chunk.length > request.maxBodyBytes) {
          chunks.push(chunk.subarray(0, request.maxBodyBytes - received));
          finish(true);
          close();
          return true;
        }
        chunks.push(chunk);
        received += chunk.length;
        return true;
      },
      onComplete() {
        if (!settled) finish(false);
      },
      onError(error) {
        if (settled) return;
        settled = true;
        reject(error);
      },
    };
    const path = request.url.search ? `${request.url.pathname}${request.url.search}` : request.url.pathname;
    dispatcher.dispatch(
      {
        origin: request.url.origin,
        path,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body,
        headersTimeout: request.timeoutMs,
        bodyTimeout: request.timeoutMs,
      },
      handler,
    );
  });
}
