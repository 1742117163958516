// The opaque `cursor` of the logs list: a keyset position (startedAt, id) and the order it was issued for, as
// base64url JSON. Binding the order in means a cursor taken from an ascending walk cannot silently resume a
// descending one (it would skip everything on the wrong side of the position).
import { z } from 'zod';
import { isStorableTime } from '../../db/storable.js';

export const LOG_ORDERS = ['desc', 'asc'] as const;
export type LogOrder = (typeof LOG_ORDERS)[number];

export interface LogPosition {
  startedAt: Date;
  id: string;
}

export interface LogCursor extends LogPosition {
  order: LogOrder;
}

const CURSOR_VERSION = 1;
/** Generous for `{v,o,t,i}` with a 64-character id; anything longer is not one of ours. */
const MAX_CURSOR_LENGTH = 256;

const cursorPayload = z.strictObject({
  v: z.literal(CURSOR_VERSION),
  o: z.enum(LOG_ORDERS),
  // A forged position the database could not compare is not a cursor either.
  t: z.int().refine(isStorableTime),
  i: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
});

export function encodeCursor(order: LogOrder, position: LogPosition): string {
  const payload: z.infer<typeof cursorPayload> = {
    v: CURSOR_VERSION,
    o: order,
    t: position.startedAt.getTime(),
    i: position.id,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/** The decoded cursor, or null when the text is not a cursor this service issued (in shape). */
export function decodeCursor(text: string): LogCursor | null {
  if (text.length === 0 || text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = cursorPayload.safeParse(json);
  if (!parsed.success) return null;
  return { order: parsed.data.o, startedAt: new Date(parsed.data.t), id: parsed.data.i };
}
