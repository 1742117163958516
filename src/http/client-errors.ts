// Requests Node's HTTP parser refuses before the app sees them: a raw non-ASCII byte or a control character in the
// URL (curl sends `/api/v1/workflows/ü` unencoded), an invalid method, headers over the size limit. Node's own answer
// is a bare status line with no body; here it is our error body (docs/api.md 3) like every other error.
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

interface ParseError extends Error {
  code?: string;
  /** llhttp's description, e.g. "Invalid char in url path". */
  reason?: string;
}

function answerFor(err: ParseError): { status: number; reason: string; code: string; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: 'Request Header Fields Too Large', code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, reason: 'Payload Too Large', code: 'PAYLOAD_TOO_LARGE', message: 'The chunk extensions of the request body are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' };
    default: {
      const detail = typeof err.reason === 'string' && err.reason.length <= 100 ? ` (${err.reason})` : '';
      const hint = err.code === 'HPE_INVALID_URL' ? '; percent-encode characters outside ASCII in the URL' : '';
      return { status: 400, reason: 'Bad Request', code: 'INVALID_REQUEST', message: `The request is not valid HTTP/1.1${detail}${hint}` };
    }
  }
}

export function answerMalformedRequests(server: Server): void {
  server.on('clientError', (err: ParseError, socket: Socket & { _httpMessage?: ServerResponse | null }) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, reason, code, message } = answerFor(err);
    const body = JSON.stringify({ error: message, code });
    const head = [
      `HTTP/1.1 ${status} ${reason}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ].join('\r\n');
    const answer = () => {
      if (socket.writable) socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
      else socket.destroy();
    };
    // A keep-alive client sends its next request as soon as it has read the previous answer, which the server may
    // not have finished yet (a streamed body's end is still being written): answer after it, never in its middle.
    const inFlight = socket._httpMessage;
    if (inFlight && !inFlight.writableFinished) {
      inFlight.once('finish', answer);
      inFlight.once('close', () => (inFlight.writableFinished ? undefined : socket.destroy()));
    } else answer();
  });
}
