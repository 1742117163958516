// Error logs without user data (issue 12): a failed query is logged with its SQL and the database's error code,
// never its parameters, the database's `detail`/`where` or values quoted in its message.
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutQuotedValues } from '../src/log-errors.js';
import { startTestApp, type TestApp } from './support/app.js';
import { echoState } from './support/states.js';

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});
const logged = () => lines.map((line) => JSON.parse(line) as { msg: string; err?: Record<string, any> });

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'info' }, { logTo: capture });
  // A database that refuses what this test sends: the way an unexpected query failure meets a user's request.
  await t.app.db.execute(sql`alter table workflows add constraint no_marker check (name not like '%MARKER%')`);
});
afterAll(async () => t?.close());

describe('error logs', () => {
  it('log a query that failed during a request by its SQL and error code, without the user values', async () => {
    lines.length = 0;
    const state = echoState();
    (state.blocks.respond.config.body as Record<string, string>).echoed = 'STATE-VALUE-4711';
    const res = await t.request('POST', '/api/v1/workflows', {
      body: { workspaceId: t.workspaceId, name: 'MARKER name', state },
    });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal server error', code: 'INTERNAL_ERROR' });

    const text = lines.join('\n');
    expect(text).not.toContain('MARKER name');
    expect(text).not.toContain('STATE-VALUE-4711');
    const entry = logged().find((line) => line.msg === 'request failed');
    expect(entry?.err).toMatchObject({
      type: 'DrizzleQueryError',
      message: expect.stringMatching(/^Failed query: insert into "workflows"/),
      cause: { code: '23514', constraint: 'no_marker', table: 'workflows' },
    });
    expect(entry?.err?.stack).toBeUndefined();
    expect(entry?.err?.cause.detail).toBeUndefined();
  });

  it('blank values the database repeats in its message or context, also for a query error wrapped in another', async () => {
    const failures: unknown[] = [];
    for (const query of [sql`select ${'uuid-from-user-8812'}::uuid`, sql`select ${'{"json-from-user-8812": '}::jsonb`]) {
      failures.push(await t.app.db.execute(query).then(() => undefined, (err: unknown) => err));
    }
    lines.length = 0;
    t.app.logger.error({ err: failures[0] }, 'uuid failed');
    t.app.logger.error({ err: new Error('saving the run failed', { cause: failures[1] }) }, 'json failed');
    expect(lines.join('\n')).not.toContain('from-user-8812');

    const [uuid, json] = logged();
    expect(uuid.err).toMatchObject({
      message: 'Failed query: select $1::uuid',
      cause: { code: '22P02', message: 'invalid input syntax for type uuid: "[redacted]"' },
    });
    expect(json.err).toMatchObject({
      message: 'saving the run failed',
      stack: expect.stringContaining('log-errors.test.ts'),
      cause: { message: 'Failed query: select $1::jsonb', cause: { code: '22P02' } },
    });
    expect(json.err?.cause.cause.where).toBeUndefined();
  });

  it('keeps message, stack and plain fields of other errors', () => {
    lines.length = 0;
    t.app.logger.warn({ err: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', port: 5432 }) }, 'down');
    expect(logged()[0].err).toMatchObject({
      type: 'Error',
      message: 'connect ECONNREFUSED 127.0.0.1:5432',
      code: 'ECONNREFUSED',
      port: 5432,
      stack: expect.stringContaining('log-errors.test.ts'),
    });
  });

  it('blanks only quoted values, not the names of constraints or relations', () => {
    expect(withoutQuotedValues('invalid input value for enum level: "secret"')).toBe('invalid input value for enum level: "[redacted]"');
    expect(withoutQuotedValues('value "123456789012" is out of range for type integer')).toBe('value "[redacted]" is out of range for type integer');
    expect(withoutQuotedValues('duplicate key value violates unique constraint "users_email_unique"')).toBe(
      'duplicate key value violates unique constraint "users_email_unique"',
    );
  });
});
