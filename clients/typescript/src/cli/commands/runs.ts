// `sluice runs show | rerun | retry <execution>`: one execution's log, and running it again (README "Re-running a run").
// A re-run from a block replays the blocks before it from the log; --dry-run lists what would run again, and which of
// those calls the outside world, without running anything.
import type { Command } from 'commander';
import type { ExecutionResponse } from '../../runs.js';
import type { LogDetail, RerunPreview } from '../../types.js';
import { SluiceError } from '../../errors.js';
import { EXIT } from '../exit-codes.js';
import { action, common, jsonLine, note, out, parseJsonObject, pretty, table } from '../io.js';
import { openSession, type CommonOptions, type Session } from '../session.js';

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
    .description('re-run a failed execution from the first block that failed')
    .argument('<execution>', 'execution id')
    .option('--dry-run', 'say what would be replayed and what would run again, without running')
    .action(
      action(async (executionId: string, options: CommonOptions & { dryRun?: boolean }) => {
        const session = openSession(options);
        if (options.dryRun) return void printPreview(await session.client.previewRerun(executionId, { retry: true }), options.json);
        return printAnswer(await session.client.retryExecution(executionId), executionId, options.json);
      }),
    );
}
