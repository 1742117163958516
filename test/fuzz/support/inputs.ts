// Hostile input, both as fixed cases every route gets (each one once broke a service like this one) and as
// fast-check arbitraries the random fuzz draws from. Path segments and query strings are written as they go on the
// wire: percent-escapes stay escapes, and binaryPath() puts raw bytes into the request line.
import fc from 'fast-check';
import { binaryPath } from './client.js';

/** Odd path segments: traversal, escapes of invalid UTF-8, a lone surrogate, NUL, raw non-ASCII bytes, huge ones. */
export const ODD_SEGMENTS: readonly string[] = [
  'wf_x',
  '..',
  '%2e%2e',
  '.',
  '0',
  '-1',
  'null',
  '__proto__',
  'constructor',
  encodeURIComponent("'; drop table users; --"),
  '%00',
  'a%00b',
  '%ED%A0%80', // a lone surrogate (U+D800) encoded as UTF-8 bytes: invalid UTF-8
  '%C0%AE', // overlong "."
  '%FF',
  '%',
  '%ZZ',
  'a%2Fb',
  '%3F%23',
  '%F0%9F%98%80',
  binaryPath('😀'),
  binaryPath('日本語'),
  'caf\u00e9', // latin1 byte 0xE9 alone: invalid UTF-8 in the request line
  '1e400',
  '9'.repeat(400),
  'a'.repeat(300),
  'x'.repeat(8_000),
  '+',
  '~',
];

/** Query strings that hurt parsers: repeats, broken escapes, prototype keys, huge numbers, huge values. */
export const ODD_QUERIES: readonly string[] = [
  '%',
  '%ZZ=1',
  'a=%ZZ',
  '%ED%A0%80=1',
  'x=%ED%A0%80',
  'x=%00',
  '__proto__=1',
  'constructor=1&toString=x&hasOwnProperty=y',
  'a[b]=c&a[]=d',
  '=',
  '&&&',
  'a==b',
  binaryPath('q=😀&ü=1'),
  'limit=1e400',
  'limit=-1',
  'limit=99999999999999999999999',
  'limit=NaN',
  'limit=Infinity',
  'limit=5&limit=6',
  `cursor=${'A'.repeat(5_000)}`,
  'cursor=%ED%A0%80',
  'order=asc&order=desc',
  'order=asc&cursor=eyJ4IjoxfQ',
  'stream=false&stream=true',
  'stream=%00',
  'expires=1e400&signature=zz',
  'expires=-1&signature=',
  `expires=${'9'.repeat(400)}&signature=${'f'.repeat(64)}`,
  'details=full&includeTraceSpans=true&includeFinalOutput=true',
  'startDate=9999-99-99',
  'startDate=%2B275760-09-13T00:00:00.000Z',
  'startDate=2025-01-01T00:00:00.123456789%2B14:00&endDate=1970-01-01',
  'minDurationMs=1e400&maxCost=99999999999999999999',
  `workflowIds=${Array.from({ length: 200 }, (_, i) => `wf_${i}`).join(',')}`,
  'triggers=api,api,chat,nope',
  'workspaceId=a&workspaceId=b',
  'folderId=%00',
  `x=${'y'.repeat(8_000)}`,
];

export const CONTENT_TYPES: readonly (string | undefined)[] = [
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=fuzz',
  'application/octet-stream',
  'application/xml',
  '*/*',
  ';;;',
  'application/json, text/plain',
];

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

export const DEEP_10K = deep(10_000);

/**
 * Raw JSON texts, keyed by what they test. Written by hand: JSON.stringify writes neither a NUL byte in a string, nor
 * invalid UTF-8, nor 10,000 levels without recursion.
 */
export const RAW_BODIES: Record<string, string | Buffer> = {
  'lone surrogates in a value and a key': '{"q":"\\ud800x","\\udc00":1}',
  'lone surrogates as raw UTF-8 bytes (CESU)': Buffer.concat([Buffer.from('{"q":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
  'escaped NUL in a value and a key': '{"q":"a\\u0000b","\\u0000":1}',
  'raw NUL byte in a string': '{"q":"a\u0000b"}',
  'nested 10,000 levels (arrays)': `{"q":${DEEP_10K}}`,
  'nested 10,000 levels (objects)': `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
  'nested 10,000 levels, never closed': '['.repeat(10_000),
  'huge numbers': '{"n":1e400,"q":-1e400,"s":"1e400","x":123456789012345678901234567890,"y":1e-400,"z":-0}',
  'prototype keys': '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"q":{"__proto__":[]}}',
  'duplicate keys': '{"q":1,"q":2,"name":"a","name":"b"}',
  'error text mentioning "timed out"': '{"q":"Request timed out after 5 ms","s":"Execution timed out","message":"timed out","name":"timed out"}',
  'byte-order mark': '\ufeff{"q":1}',
  'invalid UTF-8 bytes': Buffer.from([0x7b, 0x22, 0x71, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
  'UTF-16 encoded JSON': Buffer.from('{"q":1}', 'utf16le'),
  'bad escape': '{"q":"\\x"}',
  'truncated': '{"q":',
  'empty': '',
  'whitespace': ' \n\t ',
  'null': 'null',
  'array': '[]',
  'string': '"text"',
  'number': '42',
  'ten thousand keys': `{${Array.from({ length: 10_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
  'a wide array': `{"q":[${Array.from({ length: 50_000 }, () => '0').join(',')}]}`,
  // Escape-heavy text (issue 21): the scan for long string values once searched again after every backslash, so the
  // reading time grew with the square of such a body. The first fits the run routes' limit, the second sign-in's.
  'escape-heavy string (\\n × 100,000)': `{"q":"${'\\n'.repeat(100_000)}"}`,
  'escape-heavy mix: unicode, quotes, backslashes, escaped keys, small escaped strings': `{"q\\"\\\\":"${'\\u00e9\\"\\\\\\/'.repeat(800)}","s":[${'"\\n",'.repeat(500)}"\\ud83d\\ude00"]}`,
  'a backslash as the last byte': '{"q":"abc\\',
};

/** Strings with the characters that break storage and encoders: lone surrogates, NUL, controls, RTL, emoji. */
export const hostileString = fc.string({
  unit: fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udfff', '\u0000', '\u202e', '\ufeff', '😀', '\\', '"', '\n', '%', '<api.q>', '{{FUZZ_VAR}}') },
  ),
  maxLength: 40,
});

/** JSON values whose strings (keys included) are hostile; JSON.stringify writes lone surrogates as \u escapes. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    hostileString,
    fc.double(),
    fc.integer(),
    fc.constantFrom(null, true, false, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 'timed out', ''),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A path segment: mostly odd, sometimes random text percent-encoded (lone surrogates become %EF%BF%BD). */
export const oddSegment = fc.oneof(
  fc.constantFrom(...ODD_SEGMENTS),
  hostileString.map((s) => encodeURIComponent(s.toWellFormed()) || 'empty'),
);

export const oddQuery = fc.oneof(
  fc.constantFrom(...ODD_QUERIES),
  fc.dictionary(fc.string({ maxLength: 12 }), hostileString, { maxKeys: 4 }).map((d) =>
    Object.entries(d)
      .map(([k, v]) => `${encodeURIComponent(k.toWellFormed())}=${encodeURIComponent(v.toWellFormed())}`)
      .join('&'),
  ),
);

const cursorOf = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64url');
const YEAR_10000_MS = 253_402_300_800_000;
const BEFORE_YEAR_1_MS = -62_135_596_800_001;

/**
 * Query values PostgreSQL refuses once they reach it (issue 21: each was a 500): NUL, a lone surrogate (as raw invalid
 * UTF-8, and inside a cursor's JSON, the one way a query can carry it), timestamps outside years 1–9999 (dates,
 * offsets that cross the boundary in UTC, forged cursor positions), and cursors shaped like both kinds the app issues
 * (logs `{v,o,t,i}`, delivery history `{d}`) holding them. Sent as every documented query parameter of every route.
 */
export const UNSTORABLE_QUERY_VALUES: readonly string[] = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '0000-01-01',
  '0001-01-01T00:00:00%2B01:00',
  '9999-12-31T23:00:00-14:00',
  '%2B010000-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  cursorOf({ v: 1, o: 'desc', t: YEAR_10000_MS, i: 'log_x' }),
  cursorOf({ v: 1, o: 'asc', t: BEFORE_YEAR_1_MS, i: 'log_x' }),
  cursorOf({ v: 1, o: 'desc', t: 8.64e15, i: 'log_x' }),
  cursorOf({ v: 1, o: 'desc', t: 0, i: 'log_\u0000' }),
  cursorOf({ d: '\u0000' }),
  cursorOf({ d: 'dlv_\u0000x' }),
  cursorOf({ d: '\ud800' }),
  cursorOf({ d: 'dlv_\udfffx' }),
];

/** A forged cursor of either kind, its position or id drawn from anything JSON can carry (hostile text included). */
export const forgedCursor: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({
      v: fc.constantFrom(1, 2),
      o: fc.constantFrom('desc', 'asc'),
      t: fc.oneof(fc.integer({ min: -8.64e15, max: 8.64e15 }), fc.constantFrom(YEAR_10000_MS, BEFORE_YEAR_1_MS, 0), fc.double()),
      i: fc.oneof(hostileString, fc.constantFrom('log_x', 'a')),
    })
    .map(cursorOf),
  fc.record({ d: fc.oneof(hostileString, fc.constantFrom('\u0000', '\ud800')) }).map(cursorOf),
);
