// pino, with every place a secret could travel redacted: API keys, webhook secrets, authorization headers; and
// errors logged without the user data they carry (log-errors.ts).
import { pino, type Logger } from 'pino';
import { serializeError } from './log-errors.js';

export type { Logger };

export const REDACTED_PATHS = [
  'apiKey',
  'key',
  'secret',
  'password',
  'value',
  '*.apiKey',
  '*.key',
  '*.secret',
  '*.password',
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // Child loggers inherit these; `err` is also where pino puts an Error passed as the first argument.
      serializers: { err: serializeError },
      base: undefined,
    },
    destination as never,
  );
}
