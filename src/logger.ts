// pino, with every place a secret could travel redacted: API keys, webhook secrets, authorization headers.
import { pino, type Logger } from 'pino';

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
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: undefined }, destination as never);
}
