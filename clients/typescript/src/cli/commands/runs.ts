// `sluice runs show | rerun | retry <execution>`: one execution's log, and running it again (README "Re-running a run");
// `sluice runs retry --since 1h` without an execution retries every failed run the filters select, as one batch.
// A re-run from a block replays the blocks before it from the log; --dry-run lists what would run again, and which of
// those calls the outside world, without running anything.
import { Option, type Command } from 'commander';
import type { ExecutionResponse } from '../../runs.js';
import type { LogDetail, RerunPreview } from '../../types.js';
import { SluiceError } from '../../errors.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { action, common, jsonLine, note, out, parseJsonObject, positiveInt, pretty, table } from '../io.js';
import { openSession, resolveWorkflow, type CommonOptions, type Session } from '../session.js';

async function logOf(session: Session, executionId: string): Promise<LogDetail> {
  const page = await session.client.listLogs({ workspaceId: await session.workspaceId(), executionId, limit: 1 });
  const entry = page.data[0];
  if (!entry) {
    throw new SluiceError({ status: 404, code: 'NOT_FOUND', message: `No finished execution ${executionId} in this workspace` });
  }
  return session.client.getLog(entry.id);
}

function printPreview(preview: RerunPreview, json: boolean | undefined): void {
  if (json) return void jsonLine(preview);
  out(`Re-run of ${preview.rerunOf} ${preview.fromBlock === null ? '(whole workflow)' : `from block ${preview.fromBlock}`}`);
  out(`Replayed from the log (no calls): ${preview.replayed.length === 0 ? 'none' : preview.replayed.join(', ')}`);
  out('Would run again:');
  out(table([['BLOCK', 'TYPE', 'SIDE EFFECTS'], ...preview.willRun.map((b) => [b.blockId, b.type, b.sideEffects ? 'yes' : 'no'])]));
}

function printAnswer(answer: ExecutionResponse, rerunOf: string, json: boolean | undefined): number {
  if (json) jsonLine({ executionId: answer.executionId, rerunOf, status: answer.status, body: answer.body });
  else {
    out(pretty(answer.result ? answer.result.output : answer.body));
    note(`execution ${answer.executionId}, a re-run of ${rerunOf} (HTTP ${answer.status})`);
  }
  return answer.status >= 400 ? EXIT.runFailed : EXIT.ok;
}

export function registerRuns(program: Command): void {
  const runs = program.command('runs').description('one execution: its log, and running it again');

  common(runs.command('show'))
    .description('the log of an execution: status, duration, error, the blocks that ran, its re-runs')
    .argument('<execution>', 'execution id')
    .action(
      action(async (executionId: string, options: CommonOptions) => {
        const session = openSession(options);
        const log = await logOf(session, executionId);
        if (options.json) return void jsonLine(log);
        out(`${log.executionId}  ${log.status}  ${log.trigger}  ${log.totalDurationMs} ms  ${log.workflow.name}`);
        out(`started ${log.startedAt}, ended ${log.endedAt}`);
        if (log.rerunOf) out(`re-run of ${log.rerunOf}${log.rerunFromBlock ? ` from block ${log.rerunFromBlock}` : ''}`);
        if (log.error) out(`error: ${log.error}`);
        const spans = log.executionData.traceSpans ?? [];
        if (spans.length > 0) out(table([['BLOCK', 'TYPE', 'STATUS', 'MS'], ...spans.map((s) => [s.blockId, s.type, s.status, String(s.duration)])]));
        for (const r of log.reruns) out(`re-run ${r.executionId}  ${r.status}  ${r.startedAt}`);
      }),
    );

  common(runs.command('rerun'))
    .description('run an execution again: the whole workflow, or --from a block with the blocks before it replayed')
    .argument('<execution>', 'execution id')
    .option('--from <block>', 'block id or name to run from')
    .option('-i, --input <json>', 'trigger input instead of the original\'s, as a JSON object')
    .option('--active', 'run the active deployment instead of the version that ran')
    .option('--dry-run', 'say what would be replayed and what would run again, without running')
    .action(
      action(async (executionId: string, options: CommonOptions & { from?: string; input?: string; active?: boolean; dryRun?: boolean }) => {
        const session = openSession(options);
        const rerun = {
          fromBlock: options.from,
          input: options.input === undefined ? undefined : parseJsonObject(options.input, '--input'),
          deployment: options.active ? ('active' as const) : undefined,
        };
        if (options.dryRun) return void printPreview(await session.client.previewRerun(executionId, rerun), options.json);
        return printAnswer(await session.client.rerunExecution(executionId, rerun), executionId, options.json);
      }),
    );

  common(runs.command('retry'))
    .description('re-run a failed execution from the first block that failed; without one, every failed run the filters select')
    .argument('[execution]', 'execution id; leave out to retry failed runs in bulk (--since, --workflow, --limit)')
    .option('--dry-run', 'say what would be replayed and what would run again, without running')
    .option('--since <time>', 'bulk: runs started within this long (30m, 1h, 2d) or since this time (ISO 8601)')
    .addOption(new Option('--level <level>', 'bulk: only this level (failed runs are level error)').choices(['info', 'error']))
    .option('--workflow <workflow...>', 'bulk: only these workflows (ids or names)')
    .option('--limit <n>', 'bulk: at most this many runs, newest first (1–1000, default 100)', positiveInt('--limit'))
    .option('--no-wait', 'bulk: print the batch and return without following its progress')
    .action(
      action(async (executionId: string | undefined, options: CommonOptions & BulkRetryOptions & { dryRun?: boolean }) => {
        const session = openSession(options);
        if (executionId === undefined) {
          if (options.dryRun) throw new UsageError('--dry-run needs an execution id; a bulk retry has no dry run');
          return bulkRetry(session, options);
        }
        const bulkOnly = (['since', 'level', 'workflow', 'limit'] as const).filter((name) => options[name] !== undefined);
        if (bulkOnly.length > 0) throw new UsageError(`--${bulkOnly[0]} selects runs for a bulk retry; leave out the execution id to use it`);
        if (options.dryRun) return void printPreview(await session.client.previewRerun(executionId, { retry: true }), options.json);
        return printAnswer(await session.client.retryExecution(executionId), executionId, options.json);
      }),
    );
}

interface BulkRetryOptions {
  since?: string;
  level?: 'info' | 'error';
  workflow?: string[];
  limit?: number;
  wait: boolean;
}

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `1h`, `30m`, `2d` before now, or a time as given. */
export function sinceTime(text: string, now = Date.now()): string {
  const relative = /^(\d+)([smhd])$/.exec(text.trim());
  if (relative) return new Date(now - Number(relative[1]) * UNITS[relative[2]!]!).toISOString();
  if (Number.isNaN(Date.parse(text))) throw new UsageError('--since must be a duration such as 30m, 1h, 2d or a time such as 2025-01-31T12:00:00Z');
  return text;
}

async function bulkRetry(session: Session, options: CommonOptions & BulkRetryOptions): Promise<number> {
  const workspaceId = await session.workspaceId();
  const workflowIds = options.workflow ? await Promise.all(options.workflow.map(async (w) => (await resolveWorkflow(session, w)).id)) : undefined;
  const filter = {
    ...(options.since === undefined ? {} : { startDate: sinceTime(options.since) }),
    ...(options.level === undefined ? {} : { level: options.level }),
    ...(workflowIds === undefined ? {} : { workflowIds: workflowIds.join(',') }),
  };
  const batch = await session.client.rerunBatch(workspaceId, { filter, fromFailedBlock: true, limit: options.limit });
  if (!options.wait) {
    if (options.json) jsonLine(batch);
    else out(`batch ${batch.batchId}: ${batch.queued} of ${batch.total} failed runs queued for a retry`);
    return EXIT.ok;
  }
  if (!options.json) note(`batch ${batch.batchId}: ${batch.queued} of ${batch.total} failed runs queued for a retry`);
  let last = '';
  const progress = await session.client.waitForRerunBatch(batch.batchId, {
    onProgress: (p) => {
      const line = `${p.succeeded} succeeded, ${p.failed} failed, ${p.running} running, ${p.queued} queued${p.skipped > 0 ? `, ${p.skipped} skipped` : ''}`;
      if (!options.json && line !== last) note(line);
      last = line;
    },
  });
  if (options.json) jsonLine(progress);
  else {
    out(
      table([
        ['ORIGINAL', 'RE-RUN', 'STATUS'],
        ...progress.executions.map((e) => [e.originalExecutionId, e.executionId ?? '-', e.reason ? `${e.status}: ${e.reason}` : e.status]),
      ]),
    );
    out(`${progress.succeeded} succeeded, ${progress.failed} failed${progress.skipped > 0 ? `, ${progress.skipped} skipped` : ''} of ${progress.total}`);
  }
  return progress.failed > 0 ? EXIT.runFailed : EXIT.ok;
}
