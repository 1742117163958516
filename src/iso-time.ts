// ISO 8601 time texts as Date#toISOString writes them ("2026-11-27T04:08:25.123Z"), written and read faster than
// Date does for the times a run makes: each event, span and result has one or two, and writing or parsing one
// through Date costs about a microsecond. Both sides cache what the last call shared with the next one.

// Writing: the text up to the second is kept for the last second asked, so most calls only append the milliseconds.
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/** Exactly `new Date(ms).toISOString()` (which it falls back to outside years 1970–9999 or for a fraction of a ms). */
export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= 253402300800000) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    // "YYYY-MM-DDTHH:MM:SS." — the milliseconds and the Z follow.
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 20);
    cachedSecond = second;
  }
  const millis = ms - second * 1000;
  return `${cachedPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

// Reading: the day part (`YYYY-MM-DDT`) of the last 24-character time read, and its epoch ms. A run's times nearly
// all fall on one day, so they are checked digit by digit against it instead of being parsed and written out again.
const DAY_MS = 86_400_000;
let knownDay = '';
let knownDayMs = 0;

/**
 * Epoch ms of a text that is exactly what toISOString writes for it (so the ms can be written back as the same text:
 * `isoTime(ms) === value`), else undefined — for any other value, an offset other than Z, a missing or extra digit,
 * a date that does not exist, `24:00`.
 */
export function canonicalIsoTimeMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (knownDay !== '' && value.length === 24 && value.startsWith(knownDay)) {
    const ms = timeOfDay(value);
    if (ms !== undefined) return knownDayMs + ms;
  }
  const ms = Date.parse(value);
  if (!Number.isFinite(ms) || new Date(ms).toISOString() !== value) return undefined;
  if (value.length === 24) {
    knownDay = value.slice(0, 11);
    knownDayMs = ms - ((ms % DAY_MS) + DAY_MS) % DAY_MS;
  }
  return ms;
}

/**
 * Ms after midnight of the `hh:mm:ss.mmmZ` that ends a 24-character ISO time, when it is written as toISOString
 * writes it (each field in range: no `24:00`, which Date.parse reads as the next day); else undefined.
 */
function timeOfDay(text: string): number | undefined {
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 46 || text.charCodeAt(23) !== 90) return undefined;
  const digit = (i: number) => {
    const d = text.charCodeAt(i) - 48;
    return d >= 0 && d <= 9 ? d : NaN;
  };
  const hours = digit(11) * 10 + digit(12);
  const minutes = digit(14) * 10 + digit(15);
  const seconds = digit(17) * 10 + digit(18);
  const ms = digit(20) * 100 + digit(21) * 10 + digit(22);
  if (!(hours < 24 && minutes < 60 && seconds < 60 && ms >= 0)) return undefined; // NaN fails every comparison
  return ((hours * 60 + minutes) * 60 + seconds) * 1000 + ms;
}
