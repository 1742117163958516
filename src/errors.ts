// The one error type of the service. Anything thrown that is not an AppError becomes a 500 INTERNAL_ERROR
// with a generic message, so a stack trace or an internal detail never reaches a client.
import type { z } from 'zod';

export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly httpStatus: number,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers?: Record<string, string>,
    /** 409 ALREADY_RUNNING: the execution the call would have run beside (flow control singleton). */
    readonly runningExecutionId?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) =>
  new AppError('VALIDATION_ERROR', 400, message, details);
export const notFound = (what: string) => new AppError('NOT_FOUND', 404, `${what} not found`);
export const unauthorized = (message = 'Missing or invalid API key') => new AppError('UNAUTHORIZED', 401, message);
export const forbidden = (message = 'This API key has no access to that workspace') =>
  new AppError('FORBIDDEN', 403, message);
export const conflict = (code: string, message: string) => new AppError(code, 409, message);

export interface ErrorBody {
  error: string;
  code: string;
  details?: ErrorDetail[];
  runningExecutionId?: string;
}

export function errorBody(err: AppError): ErrorBody {
  const body: ErrorBody = err.details ? { error: err.message, code: err.code, details: err.details } : { error: err.message, code: err.code };
  if (err.runningExecutionId !== undefined) body.runningExecutionId = err.runningExecutionId;
  return body;
}

/** zod issues as error details (docs/api.md 3): `path` dotted, optionally under a prefix such as a field name. */
export function zodDetails(error: z.ZodError, prefix = ''): ErrorDetail[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    return { path, message: issue.message };
  });
}
