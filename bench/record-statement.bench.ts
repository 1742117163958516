// What the run recorder's batch statement (src/runs/record-statement.ts) costs in PGlite, part by part: how much a
// statement costs whatever its size, how much each run adds, and the share of its parts. The group commit's batch size
// is what trades one against the other (bench/REPORT-execute.md "A group commit run by the database thread, measured").
//
// The execute bench's flow runs for real in this process on an in-memory PGlite (2,000 runs first, so the indexes are
// not empty); one batch statement is captured as the recorder sends it, then replayed with fresh log ids, as is and
// with its rows repeated, beside variants: the owner's usage upsert alone, and the batch without `executions`' foreign
// keys or without its secondary indexes (dropped for the variant's round, made again after). Each variant runs
// STATEMENTS times per round, in ROUNDS alternating rounds; the figures are medians of the rounds.
//
//   node --import tsx bench/record-statement.bench.ts [rounds] [statements per round]
import { cpus } from 'node:os';
import { sql } from 'drizzle-orm';
import type { PreparedStatementClient } from '../src/db/pglite-prepared.mjs';
import { rowsOf } from '../src/db/rows.js';
import { benchFlowState, startBenchApp, startEcho } from './support/bench-flow.js';
import { ORDER_BODY } from './support/load.js';
import { median } from './support/stats.js';

const ROUNDS = Number(process.argv[2] ?? 9);
const STATEMENTS = Number(process.argv[3] ?? 200);
const WARM_RUNS = 2_000;

interface Captured {
  name: string;
  sql: string;
  params: unknown[];
}

const { server: echo, url: echoUrl } = await startEcho();
const { app, call, close, workspaceId } = await startBenchApp(undefined, { SLUICE_LIMIT_SYNC_FREE: 'unlimited', SLUICE_LIMIT_USAGE_USD_FREE: 'unlimited' });
try {
  const client = (app.db as unknown as { _: { session: { client: PreparedStatementClient } } })._.session.client;
  const created = await call('POST', '/api/v1/workflows', JSON.stringify({ workspaceId, name: 'bench', state: benchFlowState(echoUrl) }));
  const workflowId = created.body.data.id as string;
  await call('POST', `/api/v1/workflows/${workflowId}/deploy`);
  for (let i = 0; i < WARM_RUNS / 50; i++) await Promise.all(Array.from({ length: 50 }, () => call('POST', `/api/workflows/${workflowId}/execute`, ORDER_BODY)));
  await app.recorder.drain();

  // One batch of one run, as the recorder sends it.
  const send = client.queryPrepared.bind(client);
  let captured: Captured | undefined;
  client.queryPrepared = (name, text, params) => {
    if (text.includes('insert into executions')) captured ??= { name, sql: text, params };
    return send(name, text, params);
  };
  const ran = await call('POST', `/api/workflows/${workflowId}/execute`, ORDER_BODY);
  await app.recorder.drain();
  client.queryPrepared = send;
  if (ran.status !== 200 || !captured) throw new Error(`no batch statement captured (the run answered ${ran.status})`);
  const batch = captured;
  const logs = batch.params.findIndex((p) => typeof p === 'string' && p.includes('"id":"log_'));
  const usage = batch.params.findIndex((p) => typeof p === 'string' && p.includes('"user_id"'));
  if (logs < 0 || usage < 0) throw new Error('the captured batch has no log or no usage row');

  // The batch's log row `runs` times, each time under new ids (a log id names its execution: ids.ts pairedLogId).
  let next = 0;
  const row = (batch.params[logs] as string).slice(1, -1);
  const logsOf = (runs: number) =>
    `[${Array.from({ length: runs }, () => row.replace(/"id":"log_([A-Za-z0-9]+)"/, (_m, id: string) => `"id":"log_${id.slice(0, -7)}${String(next++).padStart(7, '0')}"`)).join(',')}]`;
  const batchOf = (runs: number) => () => batch.params.map((p, i) => (i === logs ? logsOf(runs) : p));
  const usageStatement = batch.sql.replace(/^with done as \([\s\S]*?\), charged as/, 'with charged as').replaceAll(`$${usage + 1}`, '$1');
  if (!usageStatement.startsWith('with charged as') || usage !== 1) throw new Error('the batch statement changed shape: update this bench');

  const exec = (text: string) => rowsOf(app.db, sql.raw(text));
  const keys = await rowsOf<{ name: string; def: string }>(
    app.db,
    sql`select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'executions'::regclass and contype = 'f'`,
  );
  const indexes = await rowsOf<{ name: string; def: string }>(
    app.db,
    sql`select indexname as name, indexdef as def from pg_indexes where tablename = 'executions'
        and indexname not in (select conname from pg_constraint where conrelid = 'executions'::regclass)`,
  );
  interface Variant {
    label: string;
    runs: number;
    text: string;
    params: () => unknown[];
    before?: () => Promise<unknown>;
    after?: () => Promise<unknown>;
  }
  const variants: Variant[] = [
    { label: '`select 1` (a round trip through PGlite)', runs: 0, text: 'select 1 as one', params: () => [] },
    { label: 'the batch, 1 run', runs: 1, text: batch.sql, params: batchOf(1) },
    { label: 'the batch, 5 runs', runs: 5, text: batch.sql, params: batchOf(5) },
    { label: 'the batch, 20 runs', runs: 20, text: batch.sql, params: batchOf(20) },
    { label: "the owner's usage upsert alone", runs: 0, text: usageStatement, params: () => [batch.params[usage]] },
    {
      label: `the batch, 5 runs, without executions' ${keys.length} foreign keys`,
      runs: 5,
      text: batch.sql,
      params: batchOf(5),
      before: () => Promise.all(keys.map((k) => exec(`alter table executions drop constraint "${k.name}"`))),
      after: () => Promise.all(keys.map((k) => exec(`alter table executions add constraint "${k.name}" ${k.def}`))),
    },
    {
      label: `the batch, 5 runs, without executions' ${indexes.length} secondary indexes`,
      runs: 5,
      text: batch.sql,
      params: batchOf(5),
      before: () => Promise.all(indexes.map((i) => exec(`drop index "${i.name}"`))),
      after: () => Promise.all(indexes.map((i) => exec(i.def))),
    },
  ];
  const timings = new Map<Variant, number[]>(variants.map((v) => [v, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
      await variant.before?.();
      // A name of its own per variant: a dropped index or key makes PostgreSQL plan the statement again anyway.
      const name = `${batch.name}_${variants.indexOf(variant)}`;
      for (let i = 0; i < 20; i++) await send(name, variant.text, variant.params());
      const started = performance.now();
      for (let i = 0; i < STATEMENTS; i++) await send(name, variant.text, variant.params());
      timings.get(variant)!.push(((performance.now() - started) / STATEMENTS) * 1000);
      await variant.after?.();
    }
  }

  console.log(`the run recorder's batch statement in PGlite (in memory), ${ROUNDS} alternating rounds × ${STATEMENTS} statements — ${cpus()[0]?.model.trim()} ×${cpus().length}, Node ${process.version}`);
  console.log(`a batch as the recorder wrote one run of the execute bench's flow, replayed with fresh log ids; ${WARM_RUNS} runs logged first\n`);
  console.log('| statement | µs (median) | µs a run | rounds |');
  console.log('|---|---|---|---|');
  for (const variant of variants) {
    const rounds = timings.get(variant)!;
    const us = median(rounds);
    console.log(`| ${variant.label} | ${us.toFixed(0)} | ${variant.runs > 0 ? (us / variant.runs).toFixed(0) : '—'} | ${rounds.map((t) => t.toFixed(0)).join(' ')} |`);
  }
  const one = median(timings.get(variants[1])!);
  const twenty = median(timings.get(variants[3])!);
  const perRun = (twenty - one) / 19;
  console.log(`\nfrom 1 and 20 runs: ~${(one - perRun).toFixed(0)} µs a statement whatever its size, ~${perRun.toFixed(0)} µs more a run`);
} finally {
  await close();
  echo.close();
}
