// The logs explorer: the logs API's filters (kept in the URL), newest or oldest first, infinite scroll by cursor.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { answer, api, ApiError } from '../api';
import { CheckboxGroup, NamedSelect } from '../components/fields';
import { Badge, formatCost, formatDuration, formatTime, Loading, OutcomeBadge, QueryView, Table } from '../components/ui';
import { useWorkflowList, workflowNames } from '../queries';
import { Link, navigate, useLocation } from '../router';
import { useWorkspace } from '../session';
import { LEVELS, TRIGGERS, type LogQuery } from '../types';

const FILTER_KEYS = [
  'workflowIds',
  'triggers',
  'level',
  'blockErrors',
  'startDate',
  'endDate',
  'executionId',
  'deploymentVersion',
  'minDurationMs',
  'maxDurationMs',
  'minCost',
  'maxCost',
  'model',
  'order',
] as const satisfies readonly (keyof LogQuery)[];
/** The filters as the URL holds them: text, which the server checks (a bad `level` is its 400, shown on the page). */
type Filters = Partial<Record<(typeof FILTER_KEYS)[number], string>>;

const PAGE_SIZE = 50;
/** The Level choice that stands for `blockErrors=true` rather than a level. */
const BLOCK_ERRORS = 'block-errors';

/** Logs API calls count against a small per-minute budget on the free plan: wait as the server says, then retry. */
export const rateLimitRetry = {
  retry: (count: number, error: unknown) =>
    error instanceof ApiError ? error.status === 429 && count < 3 : count < 2,
  retryDelay: (count: number, error: unknown) =>
    error instanceof ApiError && error.retryAfterSeconds ? error.retryAfterSeconds * 1000 : 1000 * 2 ** count,
};

function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A date and time in the browser's zone, kept as an ISO timestamp ('' when cleared). */
function DateTimeField({ label, value, onChange }: { label: string; value: string | undefined; onChange: (iso: string) => void }) {
  return (
    <label>
      {label}
      <input
        type="datetime-local"
        value={toLocalInput(value)}
        onChange={(e) => onChange(e.target.value ? new Date(e.target.value).toISOString() : '')}
      />
    </label>
  );
}

/** `v3`, or `draft` for a manual run of the draft state (no deployment). */
export function versionLabel(version: number | null): string {
  return version === null ? 'draft' : `v${version}`;
}

export function LogsPage() {
  const { workspace } = useWorkspace();
  const { search } = useLocation();
  const filters: Filters = {};
  for (const key of FILTER_KEYS) {
    const value = search.get(key);
    if (value) filters[key] = value;
  }
  const filterKey = JSON.stringify(filters);
  const [draft, setDraft] = useState<Filters>(filters);
  useEffect(() => setDraft(JSON.parse(filterKey) as Filters), [filterKey]);

  const workflows = useWorkflowList(workspace.id);
  const names = workflowNames(workflows.data);

  const logs = useInfiniteQuery({
    queryKey: ['logs', workspace.id, filterKey],
    queryFn: ({ pageParam }) => {
      const query = { workspaceId: workspace.id, limit: String(PAGE_SIZE), ...(filters as Pick<LogQuery, keyof Filters>) };
      return answer(api.GET('/api/v1/logs', { params: { query: pageParam ? { ...query, cursor: pageParam } : query } }));
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 5_000,
    ...rateLimitRetry,
  });

  // Infinite scroll: load the next page when the sentinel under the table comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && logs.hasNextPage && !logs.isFetchingNextPage) void logs.fetchNextPage();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [logs]);

  const apply = (event?: FormEvent) => {
    event?.preventDefault();
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(draft)) if (value) params.set(key, value);
    const query = params.toString();
    navigate(`/logs${query ? `?${query}` : ''}`);
  };
  const set = (key: keyof Filters, value: string) => setDraft((d) => ({ ...d, [key]: value || undefined }));

  const rows = logs.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <div className="page">
      <div className="page-head">
        <h1>Logs</h1>
      </div>
      <form className="filters card" onSubmit={apply} aria-label="Log filters">
        <label>
          Workflow
          <NamedSelect items={workflows.data} none="All" value={draft.workflowIds ?? ''} onChange={(id) => set('workflowIds', id)} />
        </label>
        <label>
          Level
          {/* One choice, two parameters: block errors are a kind of `info` run, never combined with a level. */}
          <select
            value={draft.blockErrors === 'true' ? BLOCK_ERRORS : (draft.level ?? '')}
            onChange={(e) =>
              setDraft((d) => ({
                ...d,
                level: e.target.value && e.target.value !== BLOCK_ERRORS ? e.target.value : undefined,
                blockErrors: e.target.value === BLOCK_ERRORS ? 'true' : undefined,
              }))
            }
          >
            <option value="">Any</option>
            {LEVELS.map((l) => (
              <option key={l}>{l}</option>
            ))}
            <option value={BLOCK_ERRORS}>Succeeded with block errors</option>
          </select>
        </label>
        <CheckboxGroup
          className="inline"
          small
          legend="Triggers"
          options={TRIGGERS}
          checked={(draft.triggers ?? '').split(',').filter(Boolean)}
          onChange={(list) => set('triggers', list.join(','))}
        />
        <DateTimeField label="From" value={draft.startDate} onChange={(iso) => set('startDate', iso)} />
        <DateTimeField label="To" value={draft.endDate} onChange={(iso) => set('endDate', iso)} />
        <label>
          Execution id
          <input value={draft.executionId ?? ''} onChange={(e) => set('executionId', e.target.value.trim())} placeholder="exec_…" />
        </label>
        <label>
          Version
          <input
            value={draft.deploymentVersion ?? ''}
            onChange={(e) => set('deploymentVersion', e.target.value.trim())}
            placeholder="e.g. 3, or null"
            title="Deployment version that ran; null selects manual runs of the draft"
          />
        </label>
        <label className="pair">
          Duration (ms)
          <span>
            <input inputMode="numeric" placeholder="min" value={draft.minDurationMs ?? ''} onChange={(e) => set('minDurationMs', e.target.value)} />
            <input inputMode="numeric" placeholder="max" value={draft.maxDurationMs ?? ''} onChange={(e) => set('maxDurationMs', e.target.value)} />
          </span>
        </label>
        <label className="pair">
          Cost ($)
          <span>
            <input inputMode="decimal" placeholder="min" value={draft.minCost ?? ''} onChange={(e) => set('minCost', e.target.value)} />
            <input inputMode="decimal" placeholder="max" value={draft.maxCost ?? ''} onChange={(e) => set('maxCost', e.target.value)} />
          </span>
        </label>
        <label>
          Model
          <input value={draft.model ?? ''} onChange={(e) => set('model', e.target.value.trim())} placeholder="gpt-4o-mini" />
        </label>
        <label>
          Order
          <select value={draft.order ?? 'desc'} onChange={(e) => set('order', e.target.value === 'desc' ? '' : e.target.value)}>
            <option value="desc">Newest first</option>
            <option value="asc">Oldest first</option>
          </select>
        </label>
        <div className="row gap">
          <button className="btn primary" type="submit">
            Apply
          </button>
          <button className="btn ghost" type="button" onClick={() => navigate('/logs')}>
            Clear
          </button>
        </div>
      </form>
      <QueryView query={logs} what="logs" retry list={rows} empty="No runs match these filters.">
        <Table className="logs" testId="logs-table" columns={['Started', 'Workflow', 'Trigger', 'Version', 'Level', 'Duration', 'Cost', 'Execution']}>
          {rows.map((log) => (
            <tr
              key={log.id}
              className="clickable"
              onClick={() => navigate(`/logs/${log.id}`)}
              data-testid="log-row"
              data-trigger={log.trigger}
              data-version={log.deploymentVersion ?? 'draft'}
            >
              <td>{formatTime(log.startedAt)}</td>
              <td>
                {/* To the workflow itself; the rest of the row opens the log. */}
                <Link to={`/workflows/${log.workflowId}`} onClick={(e) => e.stopPropagation()}>
                  {names.get(log.workflowId) ?? log.workflowId}
                </Link>
              </td>
              <td>
                <Badge tone="info">{log.trigger}</Badge>
              </td>
              <td>{versionLabel(log.deploymentVersion)}</td>
              <td>
                <OutcomeBadge level={log.level} blockErrorCount={log.blockErrorCount} />
              </td>
              <td>{formatDuration(log.totalDurationMs)}</td>
              <td>{formatCost(log.cost.total)}</td>
              <td>
                <code className="small">{log.executionId}</code>
              </td>
            </tr>
          ))}
        </Table>
      </QueryView>
      <div ref={sentinel} className="sentinel">
        {logs.isFetchingNextPage ? <Loading what="more" /> : logs.hasNextPage ? '' : rows.length > 0 ? <span className="muted small">End of logs</span> : ''}
      </div>
    </div>
  );
}
