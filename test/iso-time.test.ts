// src/iso-time.ts stands in for Date on the run path: isoTime for toISOString, canonicalIsoTimeMs for parsing a text
// that must be written back exactly as it was (the packed trace keeps a span's times as ms). Each must answer what
// Date answers, whatever the texts before it left in its cache.
import { describe, expect, it } from 'vitest';
import { canonicalIsoTimeMs, isoTime } from '../src/iso-time.js';

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

/** What canonicalIsoTimeMs must answer, worked out through Date alone: the ms when the text round-trips. */
function roundTripMs(text: string): number | undefined {
  const ms = Date.parse(text);
  return Number.isFinite(ms) && new Date(ms).toISOString() === text ? ms : undefined;
}

/** Reads `text` right after a canonical time of `day` was read, so the day's cache is the one `text` is checked against. */
function readAfter(day: string, text: string): number | undefined {
  expect(canonicalIsoTimeMs(`${day}T12:00:00.000Z`)).toBe(Date.parse(`${day}T12:00:00.000Z`));
  return canonicalIsoTimeMs(text);
}

describe('canonicalIsoTimeMs', () => {
  it('reads back every time isoTime writes, in and out of order, across days', () => {
    const start = Date.UTC(2026, 10, 27, 23, 59, 59, 0);
    const times = [start, start + 999, start + 1000, start + 1001, start - 86_400_000, start + 86_400_000, 0, 86_399_999, 86_400_000, 253402300799999];
    for (let i = 0; i < 3000; i++) times.push(start + Math.floor(Math.random() * 4 * 86_400_000) - 2 * 86_400_000);
    for (const ms of times) expect(canonicalIsoTimeMs(isoTime(ms))).toBe(ms);
  });

  it('does not carry a day over to the next one at midnight, nor back', () => {
    expect(canonicalIsoTimeMs('2026-11-27T23:59:59.999Z')).toBe(Date.UTC(2026, 10, 27, 23, 59, 59, 999));
    expect(canonicalIsoTimeMs('2026-11-28T00:00:00.000Z')).toBe(Date.UTC(2026, 10, 28));
    expect(canonicalIsoTimeMs('2026-11-27T00:00:00.000Z')).toBe(Date.UTC(2026, 10, 27));
    expect(canonicalIsoTimeMs('2026-12-31T23:59:59.999Z')).toBe(Date.UTC(2026, 11, 31, 23, 59, 59, 999));
    expect(canonicalIsoTimeMs('2027-01-01T00:00:00.000Z')).toBe(Date.UTC(2027, 0, 1));
  });

  it('reads leap days only in leap years, and no day past a month end', () => {
    const cases: Array<[string, number | undefined]> = [
      ['2024-02-29T10:00:00.000Z', Date.UTC(2024, 1, 29, 10)],
      ['2000-02-29T10:00:00.000Z', Date.UTC(2000, 1, 29, 10)],
      ['2023-02-29T10:00:00.000Z', undefined],
      ['2100-02-29T10:00:00.000Z', undefined],
      ['2026-04-31T10:00:00.000Z', undefined],
      ['2026-11-31T10:00:00.000Z', undefined],
      ['2026-02-30T10:00:00.000Z', undefined],
      ['2026-13-01T10:00:00.000Z', undefined],
      ['2026-00-10T10:00:00.000Z', undefined],
    ];
    for (const [text, ms] of cases) {
      expect(canonicalIsoTimeMs(text), text).toBe(ms);
      expect(roundTripMs(text), text).toBe(ms);
    }
    // After a day that exists, a day that does not with the same month is still refused.
    expect(readAfter('2023-02-28', '2023-02-29T00:00:00.000Z')).toBeUndefined();
    expect(readAfter('2024-02-29', '2024-02-29T23:59:59.999Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 999));
  });

  it('refuses on a known day every text Date would read but not write back: offsets, 24:00, missing or extra digits', () => {
    const day = '2026-11-27';
    const texts = [
      `${day}T12:00:00.000+00:00`,
      `${day}T12:00:00.000+01:00`,
      `${day}T12:00:00.000-05:30`,
      `${day}T12:00:00.000z`,
      `${day}T12:00:00Z`,
      `${day}T12:00:00.0Z`,
      `${day}T12:00:00.0000Z`,
      `${day}T12:00Z`,
      `${day}T12:00:00.000`,
      `${day}T24:00:00.000Z`,
      `${day}T23:60:00.000Z`,
      `${day}T23:59:60.000Z`,
      `${day}T1:00:00.000Z `,
      `${day}t12:00:00.000Z`,
      `${day} 12:00:00.000Z`,
      `${day}T12:00:00,000Z`,
      `${day}T-1:00:00.000Z`,
      `${day}T1a:00:00.000Z`,
      `${day}T12:00:00.-01Z`,
      `${day}`,
      `${day}T`,
    ];
    for (const text of texts) expect(readAfter(day, text), text).toBeUndefined();
  });

  it('reads years beyond four digits as Date writes them, and leaves the day cache right after them', () => {
    for (const text of ['+275760-09-13T00:00:00.000Z', '-000001-12-31T23:59:59.999Z', '0000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      expect(canonicalIsoTimeMs(text), text).toBe(Date.parse(text));
      expect(canonicalIsoTimeMs('2026-11-27T04:08:25.123Z')).toBe(Date.UTC(2026, 10, 27, 4, 8, 25, 123));
    }
    expect(readAfter('0000-01-01', '0000-01-01T23:59:59.999Z')).toBe(Date.parse('0000-01-01T23:59:59.999Z'));
  });

  it('answers undefined for values that are not texts', () => {
    for (const value of [undefined, null, 0, Date.UTC(2026, 10, 27), new Date(0), ['2026-11-27T12:00:00.000Z'], {}]) {
      expect(canonicalIsoTimeMs(value)).toBeUndefined();
    }
  });

  it('never answers a ms for a text that does not round-trip: every one-character change of a time on a known day', () => {
    const alphabet = '0123456789:.-+TZtz ';
    for (let n = 0; n < 300; n++) {
      const canonical = isoTime(Date.UTC(2026, 10, 27) + Math.floor(Math.random() * 86_400_000));
      const at = Math.floor(Math.random() * canonical.length);
      const changed = canonical.slice(0, at) + alphabet[Math.floor(Math.random() * alphabet.length)] + canonical.slice(at + 1);
      expect(canonicalIsoTimeMs(canonical)).toBe(Date.parse(canonical));
      expect(canonicalIsoTimeMs(changed), changed).toBe(roundTripMs(changed));
    }
  });
});
