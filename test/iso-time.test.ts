// isoTime (src/iso-time.ts) stands in for Date#toISOString on the run path; every text it gives must be the same.
import { describe, expect, it } from 'vitest';
import { isoTime } from '../src/iso-time.js';

describe('isoTime', () => {
  it('gives what toISOString gives, within a second, across seconds and out of order', () => {
    const start = Date.UTC(2026, 10, 27, 0, 59, 59, 990);
    const times = [start, start + 5, start + 9, start + 10, start + 99, start + 100, start + 1000, start - 1, 0, 999, 86_399_999, 253402300799999];
    for (let i = 0; i < 2000; i++) times.push(start + Math.floor(Math.random() * 10_000_000) - 5_000_000);
    for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('falls back to Date for times it does not cache, throwing as Date does for an invalid one', () => {
    for (const ms of [-1, -62198755200000, 253402300800000, 1.5]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
