// The properties every fuzzed answer must have, and the ledger of runs that must each end with exactly one log.
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { logExecutionId, executions } from '../../../src/db/schema.js';
import { eventually } from '../../support/eventually.js';
import { parseSse } from '../../support/workflows.js';
import type { RawRequest, RawResponse } from './client.js';
import type { FuzzFixture } from './fixture.js';

/** A stack frame (`at fn (file.ts:1:2)`) or a module path: what a leaked stack trace looks like. */
const STACK_TRACE = /\bat [^\n]*\.(?:ts|js|mjs|cjs):\d+:\d+|node_modules[\\/]/;
const ERROR_KEYS = new Set(['error', 'code', 'details']);
/** docs/api.md 4.4: a failed or timed-out run's error body also names the run and what it produced. */
const RUN_ERROR_KEYS = new Set([...ERROR_KEYS, 'success', 'executionId', 'conversationId', 'output', 'metadata']);
const RUN_ERROR_CODES = new Set(['EXECUTION_FAILED', 'EXECUTION_TIMEOUT']);

export interface Expectations {
  /** The request targets a workflow that fails on purpose: 500 EXECUTION_FAILED is its documented answer. */
  runMayFail?: boolean;
}

/** Every execution id an answer named; each must end up with exactly one log. */
export class RunLedger {
  readonly executionIds = new Set<string>();

  note(id: unknown) {
    if (typeof id === 'string' && id.startsWith('exec_')) this.executionIds.add(id);
  }
}

const describeRequest = (req: RawRequest) => {
  const body = req.body === undefined ? '' : ` body=${JSON.stringify(String(req.body).slice(0, 200))}`;
  return `${req.method} ${JSON.stringify(req.path.slice(0, 300))} headers=${JSON.stringify(req.headers ?? {})}${body}`;
};

/** Asserts the answer's properties and records the runs it names. */
export function checkAnswer(req: RawRequest, res: RawResponse, ledger: RunLedger, expectations: Expectations = {}) {
  const label = `${describeRequest(req)} → ${res.status} ${res.text.slice(0, 400)}`;
  const json = res.json as Record<string, unknown> | undefined;
  const documentedFailure = expectations.runMayFail === true && res.status === 500 && json?.code === 'EXECUTION_FAILED';
  // Listing an MCP server's tools names a server outside: one that cannot be reached is its documented 502.
  const unreachableServer = res.status === 502 && json?.code === 'MCP_SERVER_UNREACHABLE' && req.path.startsWith('/api/v1/mcp/tools');
  expect(res.status < 500 || documentedFailure || unreachableServer, `no 5xx: ${label}`).toBe(true);
  expect(STACK_TRACE.test(res.text), `no stack trace: ${label}`).toBe(false);

  if (res.status >= 400 && req.method !== 'HEAD') {
    expect(json !== null && typeof json === 'object' && !Array.isArray(json), `error body is a JSON object: ${label}`).toBe(true);
    expect(typeof json!.error, `error is a string: ${label}`).toBe('string');
    expect(typeof json!.code, `code is a string: ${label}`).toBe('string');
    const allowed = RUN_ERROR_CODES.has(json!.code as string) ? RUN_ERROR_KEYS : ERROR_KEYS;
    expect(Object.keys(json!).filter((k) => !allowed.has(k)), `only the error body fields: ${label}`).toEqual([]);
    if (json!.details !== undefined) {
      expect(Array.isArray(json!.details), `details is an array: ${label}`).toBe(true);
      for (const detail of json!.details as unknown[]) {
        const d = detail as Record<string, unknown>;
        expect(typeof d?.path === 'string' && typeof d?.message === 'string', `details are {path, message}: ${label}`).toBe(true);
      }
    }
  }

  const contentType = String(res.headers['content-type'] ?? '');
  if (contentType.startsWith('text/event-stream')) {
    const { records } = parseSse(res.text);
    expect(records.at(-1), `a stream ends with [DONE]: ${label}`).toBe('[DONE]');
    const done = records.find((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && (r as { event?: unknown }).event === 'done');
    expect(done, `a stream has a done record: ${label}`).toBeDefined();
    // The streaming equivalent of a 500: the run itself threw, outside the engine.
    expect(done!.error, `no internal error in a stream: ${label}`).not.toBe('Internal server error');
    if (!expectations.runMayFail) expect(done!.success, `a fuzzed run succeeds: ${label}`).toBe(true);
    ledger.note(done!.executionId);
  } else if (json && typeof json === 'object') {
    ledger.note(json.executionId);
  }
  ledger.note(res.headers['x-execution-id']);
  // A run of a workflow built not to fail that fails anyway is a finding (a 500 is caught above; this is a 200 with
  // success: false, which the API never sends).
  if (json && typeof json === 'object' && json.success === false) expect(expectations.runMayFail, `unexpected failed run: ${label}`).toBe(true);
}

/** Sends and checks the answer. */
export async function sendChecked(f: FuzzFixture, ledger: RunLedger, req: RawRequest, expectations: Expectations = {}): Promise<RawResponse> {
  const res = await f.client.send(req);
  checkAnswer(req, res, ledger, expectations);
  return res;
}

/** The process still serves: GET /health is 200 (a crash would also fail every later request). */
export async function assertStillServing(f: FuzzFixture, after: string) {
  const health = await f.client.send({ method: 'GET', path: '/health' });
  expect(health.status, `still serving after ${after}`).toBe(200);
}

/** Sends, checks the answer, and checks that the server still serves (the random fuzz: after every request). */
export async function fuzzRequest(f: FuzzFixture, ledger: RunLedger, req: RawRequest, expectations: Expectations = {}): Promise<RawResponse> {
  const res = await sendChecked(f, ledger, req, expectations);
  await assertStillServing(f, describeRequest(req));
  return res;
}

/**
 * Every run an answer named has exactly one log (looked up through the logs API, in every workspace the fuzz could
 * have run in), and once the worker and the run recorder are idle no execution is left `running`.
 */
export async function assertEveryRunLogged(f: FuzzFixture, ledger: RunLedger) {
  const ids = [...ledger.executionIds];
  const logsOf = async (executionId: string) => {
    let found = 0;
    for (const workspaceId of f.workspaces) {
      const res = await f.client.send({
        method: 'GET',
        path: `/api/v1/logs?workspaceId=${workspaceId}&executionId=${executionId}`,
        headers: f.auth.personalKey,
      });
      expect(res.status, res.text).toBe(200);
      found += (res.json as { data: unknown[] }).data.length;
    }
    return found;
  };
  // A few at a time: async runs may still be queued, and the logs API is what a user would poll.
  for (let i = 0; i < ids.length; i += 8) {
    await Promise.all(
      ids.slice(i, i + 8).map(async (id) => {
        const count = await eventually(async () => {
          const n = await logsOf(id);
          return n > 0 ? n : undefined;
        }, 20_000, `the log of ${id}`);
        expect(count, `logs of ${id}`).toBe(1);
      }),
    );
  }
  const running = await eventually(async () => {
    const rows = await f.t.app.db.select({ id: logExecutionId }).from(executions).where(eq(executions.status, 'running'));
    return rows.length === 0 ? rows : undefined;
  }, 20_000, 'no execution left running');
  expect(running).toEqual([]);
}

/** Replaying one counterexample (FUZZ_PATH): the coverage a full draw must reach does not apply. */
export const replaying = process.env.FUZZ_PATH !== undefined;

/** fast-check settings: a fixed number of runs; FUZZ_SEED (and FUZZ_PATH) replay a failure it printed. */
export function fuzzParameters(numRuns: number) {
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
  return { numRuns, seed, path: process.env.FUZZ_PATH, endOnFailure: true };
}
