// One log: summary (with how the run ended: success, error or cancelled), the approvals it waited for, cost and
// tokens per model, the trace-span waterfall (bars to scale on one time axis, loop and parallel iterations nested
// under their container) and the final output.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { blocksReportedLabel, reportedBlockErrors, type ReportedBlockError } from '../../../src/workflow/block-errors.js';
import { answer, api } from '../api';
import { Badge, formatCost, formatDuration, formatTime, JsonView, QueryView, Table } from '../components/ui';
import { Link } from '../router';
import { useWorkspace } from '../session';
import type { ApprovalsSummary, LogDetail, TraceSpan } from '../types';
import { rateLimitRetry, versionLabel } from './Logs';
import { RerunActions } from './Rerun';

interface Row {
  span: TraceSpan;
  depth: number;
  key: string;
}

function flatten(spans: TraceSpan[], depth = 0, prefix = ''): Row[] {
  const rows: Row[] = [];
  spans.forEach((span, index) => {
    const key = `${prefix}${index}`;
    rows.push({ span, depth, key });
    if (span.children?.length) rows.push(...flatten(span.children, depth + 1, `${key}.`));
  });
  return rows;
}

export function LogDetailPage({ logId }: { logId: string }) {
  const log = useQuery({
    queryKey: ['log', logId],
    queryFn: () => answer(api.GET('/api/v1/logs/{logId}', { params: { path: { logId } } })).then((r) => r.data),
    staleTime: Infinity,
    ...rateLimitRetry,
  });
  return (
    <QueryView query={log} what="log" retry back={<Link to="/logs">Back to logs</Link>}>
      {(d) => <LogView log={d} />}
    </QueryView>
  );
}

/** A loaded log: its summary, approvals, costs per model, trace and final output. */
function LogView({ log: d }: { log: LogDetail }) {
  const tokens = d.cost.tokens;
  const models = Object.entries(d.cost.models ?? {});
  // From the trace by the rule the stored count follows, so logs from before the count was kept say it too.
  const blockErrors = useMemo(() => reportedBlockErrors(d.status, d.executionData.traceSpans ?? []), [d]);
  return (
    <div className="page">
      <div className="page-head">
        <Link to="/logs" className="muted">
          Logs /
        </Link>
        <h1>{d.workflow?.name ?? d.workflowId}</h1>
        <StatusBadge status={d.status} level={d.level} withBlockErrors={blockErrors.length > 0} />
        <Badge tone="info">{d.trigger}</Badge>
        <span className="row gap grow-right">
          <RerunActions logId={d.id} failed={d.status === 'error'} log={d} />
          <Link to={`/workflows/${d.workflowId}?execution=${d.executionId}`} className="btn small">
            Open in editor
          </Link>
        </span>
      </div>
      <div className="stats">
        <Stat label="Started" value={formatTime(d.startedAt)} />
        <Stat label="Version" value={versionLabel(d.deploymentVersion)} />
        <Stat label="Duration" value={formatDuration(d.totalDurationMs)} />
        <Stat label="Cost" value={formatCost(d.cost.total)} />
        <Stat label="Tokens" value={tokens ? `${tokens.total} (${tokens.prompt} in / ${tokens.completion} out)` : '—'} />
        <Stat label="Execution" value={<code>{d.executionId}</code>} />
        {d.parentExecutionId && (
          <Stat label="Started by" value={<Link to={`/logs?executionId=${d.parentExecutionId}`}>{d.parentExecutionId}</Link>} />
        )}
        {d.rerunOf && (
          <Stat
            label={d.rerunFromBlock ? `Re-run from ${blockName(d.executionData.traceSpans ?? [], d.rerunFromBlock)}` : 'Re-run of'}
            value={<Link to={`/logs?executionId=${d.rerunOf}`}>{d.rerunOf}</Link>}
          />
        )}
      </div>
      {d.error && (
        <div className="error-box" data-testid="log-error">
          {d.error}
        </div>
      )}
      {blockErrors.length > 0 && <BlockErrors errors={blockErrors} />}
      {d.reruns.length > 0 && <Reruns reruns={d.reruns} />}
      {d.approvals && <Approvals approvals={d.approvals} spans={d.executionData.traceSpans ?? []} />}
      {models.length > 0 && (
        <section className="card">
          <h3>Models</h3>
          <Table className="compact" columns={['Model', 'Input', 'Output', 'Total', 'Tokens']}>
            {models.map(([name, m]) => (
              <tr key={name}>
                <td>{name}</td>
                <td>{formatCost(m.input)}</td>
                <td>{formatCost(m.output)}</td>
                <td>{formatCost(m.total)}</td>
                <td>
                  {m.tokens.total} ({m.tokens.prompt} / {m.tokens.completion})
                </td>
              </tr>
            ))}
          </Table>
        </section>
      )}
      <section className="card">
        <h3>Trace</h3>
        <Waterfall spans={d.executionData.traceSpans ?? []} />
      </section>
      <section className="card">
        <h3>Final output</h3>
        <JsonView value={d.executionData.finalOutput ?? null} maxHeight={360} />
      </section>
    </div>
  );
}

function blockName(spans: TraceSpan[], blockId: string): string {
  return spanNames(spans).get(blockId) ?? blockId;
}

/** The re-runs of this execution, oldest first. */
function Reruns({ reruns }: { reruns: LogDetail['reruns'] }) {
  return (
    <section className="card" data-testid="log-reruns">
      <h3>Re-runs</h3>
      <ul className="small">
        {reruns.map((r) => (
          <li key={r.executionId}>
            <Link to={`/logs?executionId=${r.executionId}`}>{r.executionId}</Link> <Badge tone={r.status === 'success' ? 'ok' : r.status === 'error' ? 'error' : 'muted'}>{r.status}</Badge>{' '}
            <span className="muted">{formatTime(r.startedAt)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** How the run ended; a log without `status` (an older server) shows its level. */
function StatusBadge({ status, level, withBlockErrors }: { status: string | undefined; level: LogDetail['level']; withBlockErrors: boolean }) {
  const shown = status ?? (level === 'error' ? 'error' : 'info');
  const tone =
    withBlockErrors || shown === 'cancelled' ? 'warn' : shown === 'success' || shown === 'info' ? 'ok' : shown === 'error' ? 'error' : 'muted';
  return (
    <span data-testid="log-status" data-status={shown}>
      <Badge tone={tone}>{shown}</Badge>
    </span>
  );
}

/** A run that succeeded although blocks reported errors: that first, with each block's error, before the trace. */
function BlockErrors({ errors }: { errors: ReportedBlockError[] }) {
  return (
    <section className="block-errors-box" data-testid="log-block-errors">
      <strong>Succeeded — {blocksReportedLabel(errors.length)}</strong>
      <ul>
        {errors.map((e) => (
          <li key={e.blockId} data-testid="block-error" data-block-name={e.name}>
            <strong>{e.name}</strong>: {e.error}
          </li>
        ))}
      </ul>
      <div className="muted tiny">
        The run went on: the workflow handles these errors (an error connection, or a block that reports errors in its output).
      </div>
    </section>
  );
}

/** Block names by id, from the trace (the log's own record of what ran). */
function spanNames(spans: TraceSpan[], names = new Map<string, string>()): Map<string, string> {
  for (const span of spans) {
    if (!names.has(span.blockId)) names.set(span.blockId, span.name);
    if (span.children) spanNames(span.children, names);
  }
  return names;
}

const hasData = (data: unknown) => data !== undefined && data !== null && !(typeof data === 'object' && Object.keys(data).length === 0);

/** The pauses of a run that waited for approvals: how long it waited, and each decision. */
function Approvals({ approvals, spans }: { approvals: ApprovalsSummary; spans: TraceSpan[] }) {
  const { session } = useWorkspace();
  const names = useMemo(() => spanNames(spans), [spans]);
  const decisions = Object.entries(approvals.decisions).sort(([, a], [, b]) => a.decidedAt.localeCompare(b.decidedAt));
  const by = (decidedBy: string | null) =>
    decidedBy === null ? 'the time-out (default decision)' : decidedBy === session.user.id ? session.user.email : decidedBy;
  return (
    <section className="card" data-testid="log-approvals">
      <h3>Approvals</h3>
      <p className="small">
        Paused {approvals.pauses === 1 ? 'once' : `${approvals.pauses} times`}, waited{' '}
        <strong data-testid="paused-time">{formatDuration(approvals.pausedMs)}</strong> (not counted in the duration)
        {approvals.firstStartedAt && <> · first started {formatTime(approvals.firstStartedAt)}</>}
      </p>
      {decisions.length === 0 ? (
        <p className="muted small">No decision was made.</p>
      ) : (
        <ul className="decisions">
          {decisions.map(([key, decision]) => {
            const blockId = decision.toolCall?.blockId ?? key;
            return (
              <li key={key} data-testid="decision" data-block-name={names.get(blockId) ?? blockId}>
                <strong>{names.get(blockId) ?? blockId}</strong>
                {decision.toolCall && (
                  <span className="small">
                    <span className="muted">tool</span> <code>{decision.toolCall.name}</code>
                  </span>
                )}
                {decision.approved ? <Badge tone="ok">approved</Badge> : <Badge tone="error">rejected</Badge>}
                <span className="small">
                  by {by(decision.decidedBy)}, {formatTime(decision.decidedAt)}
                </span>
                {hasData(decision.data) && (
                  <span className="small">
                    <span className="muted">data</span> <code>{JSON.stringify(decision.data)}</code>
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function Stat({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="stat">
      <div className="muted tiny">{label}</div>
      <div>{value}</div>
    </div>
  );
}

export function Waterfall({ spans }: { spans: TraceSpan[] }) {
  const rows = useMemo(() => flatten(spans), [spans]);
  const [selected, setSelected] = useState<string | null>(null);
  if (rows.length === 0) return <p className="muted">No trace spans were recorded for this run.</p>;
  const starts = rows.map((r) => Date.parse(r.span.startTime)).filter(Number.isFinite);
  const ends = rows.map((r) => Date.parse(r.span.endTime)).filter(Number.isFinite);
  const t0 = Math.min(...starts);
  const total = Math.max(1, Math.max(...ends) - t0);
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const chosen = rows.find((r) => r.key === selected);
  return (
    <div className="waterfall" data-testid="waterfall">
      <div className="wf-row wf-axis">
        <div className="wf-label" />
        <div className="wf-track">
          {ticks.map((t) => (
            <span key={t} className="wf-tick" style={{ left: `${t * 100}%` }}>
              {formatDuration(total * t)}
            </span>
          ))}
        </div>
        <div className="wf-duration" />
      </div>
      {rows.map(({ span, depth, key }) => {
        const start = Date.parse(span.startTime) - t0;
        const width = Math.max(0.4, (span.duration / total) * 100);
        return (
          <div
            key={key}
            className={`wf-row clickable ${selected === key ? 'selected' : ''}`}
            onClick={() => setSelected(selected === key ? null : key)}
            data-testid="span-row"
            data-span-name={span.name}
          >
            <div className="wf-label" style={{ paddingLeft: 8 + depth * 16 }} title={span.type}>
              <span className={`dot ${span.status}`} /> {span.name}
              <span className="muted tiny"> {span.type}</span>
            </div>
            <div className="wf-track">
              <div
                className={`wf-bar ${span.status}`}
                style={{ left: `${(start / total) * 100}%`, width: `${Math.min(width, 100 - (start / total) * 100)}%` }}
              />
            </div>
            <div className="wf-duration small">{formatDuration(span.duration)}</div>
          </div>
        );
      })}
      {chosen && (
        <div className="span-detail">
          <h4>
            {chosen.span.name} <span className="muted small">{chosen.span.type}</span>
          </h4>
          <div className="small muted">
            {formatTime(chosen.span.startTime)} · {formatDuration(chosen.span.duration)}
            {chosen.span.model ? ` · ${chosen.span.model}` : ''}
            {chosen.span.tokens ? ` · ${chosen.span.tokens.total} tokens` : ''}
            {chosen.span.cost !== undefined ? ` · ${formatCost(typeof chosen.span.cost === 'number' ? chosen.span.cost : chosen.span.cost.total)}` : ''}
          </div>
          {chosen.span.error && <div className="error-box small">{chosen.span.error}</div>}
          <div className="two-col">
            <div>
              <h5>Input</h5>
              <JsonView value={chosen.span.input ?? null} maxHeight={260} />
            </div>
            <div>
              <h5>Output</h5>
              <JsonView value={chosen.span.output ?? null} maxHeight={260} />
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
