// The bound on retrying an update whose row moved to another log partition (runs/moved-rows.ts): the race itself is
// tested on PostgreSQL in approvals-races.test.ts; here, what a caller gets when the row keeps moving.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { retryingMovedRows } from '../../src/runs/moved-rows.js';

/** A database error as node-postgres raises it, wrapped by Drizzle as the cause of its query error. */
const moved = () => Object.assign(new Error('Failed query: update "executions" …'), { cause: { code: '40001' } });

describe('retrying an update whose row moved', () => {
  it('runs the update again and answers what it then finds', async () => {
    let tries = 0;
    expect(await retryingMovedRows(async () => (++tries < 3 ? Promise.reject(moved()) : 'closed nothing'))).toBe('closed nothing');
    expect(tries).toBe(3);
  });

  it('gives up after a few moves with a 409 asking to try again, not the database error', async () => {
    let tries = 0;
    const failing = retryingMovedRows(() => {
      tries++;
      return Promise.reject(moved());
    });
    await expect(failing).rejects.toBeInstanceOf(AppError);
    await expect(failing).rejects.toMatchObject({ code: 'CONFLICT', httpStatus: 409, message: expect.stringMatching(/try again/) });
    expect(tries).toBe(4);
  });

  it('passes any other error on at once', async () => {
    let tries = 0;
    const other = Object.assign(new Error('deadlock'), { code: '40P01' });
    await expect(
      retryingMovedRows(() => {
        tries++;
        return Promise.reject(other);
      }),
    ).rejects.toBe(other);
    expect(tries).toBe(1);
  });
});
