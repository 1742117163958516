// What PostgreSQL refuses that JavaScript holds, as one rule for text and one for timestamps. Everything that goes
// to the database as text or as a timestamp is checked here, so a value the database would refuse never reaches it
// (where it would be a 500, or a lost write):
// - Text: U+0000 ("invalid byte sequence for encoding UTF8: 0x00") and lone UTF-16 surrogates (jsonb refuses them;
//   text columns take them only because both drivers quietly encode them as U+FFFD).
// - Timestamps: years 0001–9999 UTC. timestamptz itself reaches further, but a Date goes to SQL as toISOString(),
//   which writes year 0 and years past 9999 as `0000-…` and `+010000-…`, forms PostgreSQL does not parse.
// Input a person typed (filters, cursors, names) is refused with these checks; data from outside that must be kept
// (a receiver's answer, an upstream error, a run's output) is stored with the characters replaced by U+FFFD.
import { z } from 'zod';

/** Why a text was refused, as a validation message after the parameter's name. */
export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL (\\u0000) characters or unpaired UTF-16 surrogates';

const NUL = /\u0000/g;

export const isStorableText = (text: string): boolean => text.isWellFormed() && !text.includes('\u0000');

/** `text` with NUL and lone surrogates replaced by U+FFFD: what the database can keep of it. */
export function storableText(text: string): string {
  const wellFormed = text.toWellFormed();
  return wellFormed.includes('\u0000') ? wellFormed.replace(NUL, '\uFFFD') : wellFormed;
}

/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z, in epoch milliseconds. */
export const MIN_STORABLE_TIME_MS = -62_135_596_800_000;
export const MAX_STORABLE_TIME_MS = 253_402_300_799_999;

export const UNSTORABLE_TIME_MESSAGE = 'must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z';

/** Whether a time (a Date or epoch milliseconds) can go to the database; an invalid Date cannot. */
export function isStorableTime(time: Date | number): boolean {
  const ms = typeof time === 'number' ? time : time.getTime();
  return ms >= MIN_STORABLE_TIME_MS && ms <= MAX_STORABLE_TIME_MS;
}

/** The zod pieces request schemas build on: a text and a date the database accepts, else 400 naming the field. */
export const storableString = z.string().refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);
export const storableDate = z.date().refine(isStorableTime, UNSTORABLE_TIME_MESSAGE);
