// Request ids (X-Request-Id): the caller's own when it is a sane one — a proxy or client that already tags its
// requests keeps its id end to end — otherwise one of ours. Sane means short and harmless in a header, a log line and
// a database column: 1–128 characters of letters, digits and . _ : -.
import { newId } from '../ids.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(incoming: string | undefined): string {
  return incoming !== undefined && SANE.test(incoming) ? incoming : newId('req');
}
