// W3C traceparent headers: a valid one continues the caller's trace; anything malformed is ignored (a new trace).
import { describe, expect, it } from 'vitest';
import { formatTraceparent, parseTraceparent } from '../../src/observability/tracing.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('traceparent', () => {
  it('reads the ids and the sampled flag, and writes them back', () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true, remote: true });
    expect(parseTraceparent(`00-${TRACE.toUpperCase()}-${SPAN}-00`)).toMatchObject({ traceId: TRACE, sampled: false });
    expect(formatTraceparent({ traceId: TRACE, spanId: SPAN, sampled: true })).toBe(`00-${TRACE}-${SPAN}-01`);
    // A later version may append fields.
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-extra`)).toMatchObject({ traceId: TRACE });
  });

  it('ignores malformed headers', () => {
    for (const bad of [
      undefined,
      '',
      'garbage',
      `ff-${TRACE}-${SPAN}-01`,
      `00-${'0'.repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `00-${TRACE.slice(1)}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-zz`,
    ]) {
      expect(parseTraceparent(bad), String(bad)).toBeUndefined();
    }
  });
});
