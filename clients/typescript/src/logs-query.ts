import type { paths } from './generated/openapi.js';
import type { LogQuery } from './types.js';

type RawLogQuery = NonNullable<paths['/api/v1/logs']['get']['parameters']['query']>;

/** The query as the server reads it: comma lists, ISO dates, text numbers and flags; unset values left out. */
export function serializeLogQuery(query: LogQuery): RawLogQuery {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) out[name] = value.join(',');
    else if (value instanceof Date) out[name] = value.toISOString();
    else out[name] = String(value);
  }
  return out as RawLogQuery;
}
