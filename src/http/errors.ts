// The one place errors become HTTP responses: AppError → its status and error body (docs/api.md 3); anything else →
// 500 INTERNAL_ERROR with a generic message (the details go to the log, never to the client).
import { DrizzleQueryError } from 'drizzle-orm';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, errorBody } from '../errors.js';
import type { AppEnv } from './env.js';
import { requestLogger } from './observe.js';

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  // The query builder wraps whatever its driver throws, an AppError too (the read replica's 503, db/client.ts).
  if (err instanceof DrizzleQueryError && err.cause instanceof AppError) return err.cause;
  if (err instanceof HTTPException && err.status === 413) {
    return new AppError('PAYLOAD_TOO_LARGE', 413, 'The request body is too large');
  }
  return new AppError('INTERNAL_ERROR', 500, 'Internal server error');
}

export function errorResponse(c: Context, err: AppError) {
  for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
  return c.json(errorBody(err), err.httpStatus as ContentfulStatusCode);
}

export function handleError(err: unknown, c: Context<AppEnv>) {
  const appError = toAppError(err);
  if (appError.httpStatus >= 500) {
    requestLogger(c)?.error({ err, method: c.req.method, path: c.req.path }, 'request failed');
  }
  return errorResponse(c, appError);
}

export function handleNotFound(c: Context) {
  return errorResponse(c, new AppError('NOT_FOUND', 404, `No route for ${c.req.method} ${c.req.path}`));
}
