// Completion webhook subscriptions of a workflow (docs/api.md 7): create, edit, test event, delivery
// history with every attempt, redeliver.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { answer, api } from '../api';
import { CheckboxGroup } from '../components/fields';
import { Badge, ConfirmButton, ErrorBox, formatDuration, formatTime, JsonView, QueryView, Table } from '../components/ui';
import { VIEWER_HINT } from '../roles';
import { LEVELS, TRIGGERS, type Delivery, type Subscription, type SubscriptionUpdate } from '../types';

const INCLUDES = [
  ['includeFinalOutput', 'Final output'],
  ['includeTraceSpans', 'Trace spans'],
  ['includeRateLimits', 'Rate limits'],
  ['includeUsageData', 'Usage data'],
] as const;

type IncludeKey = (typeof INCLUDES)[number][0];

interface SubscriptionForm {
  url: string;
  secret: string;
  levelFilter: NonNullable<SubscriptionUpdate['levelFilter']>;
  triggerFilter: NonNullable<SubscriptionUpdate['triggerFilter']>;
  active: boolean;
  includeFinalOutput: boolean;
  includeTraceSpans: boolean;
  includeRateLimits: boolean;
  includeUsageData: boolean;
}

/** A test that keeps the values the form offers: the answer lists them as plain text, a subscription takes these. */
const among =
  <T extends string>(options: readonly T[]) =>
  (value: string): value is T =>
    (options as readonly string[]).includes(value);

const emptyForm = (): SubscriptionForm => ({
  url: '',
  secret: '',
  levelFilter: [...LEVELS],
  triggerFilter: [...TRIGGERS],
  active: true,
  includeFinalOutput: false,
  includeTraceSpans: false,
  includeRateLimits: false,
  includeUsageData: false,
});

/** `readOnly`: a viewer's panel: subscriptions and deliveries are shown, not changed (the server refuses that too). */
export function WebhooksPanel({ workflowId, readOnly = false }: { workflowId: string; readOnly?: boolean }) {
  const client = useQueryClient();
  const ofWorkflow = { params: { path: { workflowId } } };
  const subscriptions = useQuery({
    queryKey: ['subscriptions', workflowId],
    queryFn: () => answer(api.GET('/api/v1/workflows/{workflowId}/webhooks', ofWorkflow)).then((r) => r.data),
  });
  const [form, setForm] = useState<SubscriptionForm | null>(null);
  const create = useMutation({
    mutationFn: (values: SubscriptionForm) => {
      const { secret, ...rest } = values;
      return answer(api.POST('/api/v1/workflows/{workflowId}/webhooks', { ...ofWorkflow, body: { ...rest, ...(secret ? { secret } : {}) } }));
    },
    onSuccess: () => {
      setForm(null);
      void client.invalidateQueries({ queryKey: ['subscriptions', workflowId] });
    },
  });

  return (
    <div className="page narrow">
      <section className="card">
        <div className="row gap">
          <h3 className="grow">Completion webhooks</h3>
          {!form && !readOnly && (
            <button className="btn primary" onClick={() => setForm(emptyForm())} data-testid="new-subscription">
              Add subscription
            </button>
          )}
        </div>
        <p className="small muted">
          After every run that matches the filters, Sluice POSTs a signed <code>workflow.execution.completed</code> event to the URL,
          retrying on 5xx, 429 and time-outs (5 s, 15 s, 1 min, 3 min).
        </p>
        {readOnly && (
          <p className="small muted" data-testid="viewer-hint">
            {VIEWER_HINT}
          </p>
        )}
        {form && (
          <SubscriptionEditor
            value={form}
            onChange={setForm}
            onCancel={() => setForm(null)}
            onSubmit={() => create.mutate(form)}
            pending={create.isPending}
            error={create.error}
            submitLabel="Create subscription"
            secretHelp="Optional; enables the Service-signature header (at least 8 characters)."
          />
        )}
      </section>
      <QueryView query={subscriptions} what="subscriptions" retry empty="No subscriptions yet.">
        {(list) => list.map((s) => <SubscriptionCard key={s.id} subscription={s} workflowId={workflowId} readOnly={readOnly} />)}
      </QueryView>
    </div>
  );
}

function SubscriptionEditor({
  value,
  onChange,
  onSubmit,
  onCancel,
  pending,
  error,
  submitLabel,
  secretHelp,
}: {
  value: SubscriptionForm;
  onChange: (value: SubscriptionForm) => void;
  onSubmit: () => void;
  onCancel: () => void;
  pending: boolean;
  error: unknown;
  submitLabel: string;
  secretHelp: string;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="subscription-form" onSubmit={submit}>
      <label className="field">
        <span>URL</span>
        <input
          aria-label="Webhook URL"
          type="url"
          required
          placeholder="https://example.com/hooks/sluice"
          value={value.url}
          onChange={(e) => onChange({ ...value, url: e.target.value })}
        />
      </label>
      <label className="field">
        <span>Signing secret</span>
        <input
          aria-label="Signing secret"
          type="password"
          autoComplete="new-password"
          value={value.secret}
          onChange={(e) => onChange({ ...value, secret: e.target.value })}
        />
        <span className="muted tiny">{secretHelp}</span>
      </label>
      <fieldset>
        <legend>Include in the payload</legend>
        {INCLUDES.map(([key, label]) => (
          <label key={key} className="check">
            <input type="checkbox" checked={value[key as IncludeKey]} onChange={(e) => onChange({ ...value, [key]: e.target.checked })} />
            {label}
          </label>
        ))}
      </fieldset>
      <CheckboxGroup
        legend="Levels"
        options={LEVELS}
        checked={value.levelFilter}
        onChange={(levelFilter) => onChange({ ...value, levelFilter })}
      />
      <CheckboxGroup
        legend="Triggers"
        options={TRIGGERS}
        checked={value.triggerFilter}
        onChange={(triggerFilter) => onChange({ ...value, triggerFilter })}
      />
      <label className="check">
        <input type="checkbox" checked={value.active} onChange={(e) => onChange({ ...value, active: e.target.checked })} />
        Active
      </label>
      <ErrorBox error={error} />
      <div className="row gap">
        <button className="btn primary" type="submit" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </button>
        <button className="btn ghost" type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function SubscriptionCard({ subscription: s, workflowId, readOnly }: { subscription: Subscription; workflowId: string; readOnly: boolean }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState<SubscriptionForm | null>(null);
  const [open, setOpen] = useState(true);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['subscriptions', workflowId] });
    void client.invalidateQueries({ queryKey: ['deliveries', s.id] });
  };
  const ofSubscription = { params: { path: { workflowId, subscriptionId: s.id } } };
  const update = useMutation({
    mutationFn: (patch: SubscriptionUpdate) =>
      answer(api.PATCH('/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}', { ...ofSubscription, body: patch })),
    onSuccess: () => {
      setEditing(null);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => answer(api.DELETE('/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}', ofSubscription)),
    onSuccess: refresh,
  });
  const test = useMutation({
    mutationFn: () => answer(api.POST('/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/test', ofSubscription)),
    onSuccess: refresh,
  });

  return (
    <section className="card subscription" data-testid="subscription">
      <div className="row gap">
        <code className="grow url">{s.url}</code>
        {s.active ? <Badge tone="ok">active</Badge> : <Badge tone="muted">disabled</Badge>}
        {s.hasSecret ? <Badge tone="info">signed</Badge> : <Badge tone="muted">unsigned</Badge>}
      </div>
      <div className="small muted">
        Levels: {s.levelFilter.join(', ')} · Triggers: {s.triggerFilter.join(', ')} · Includes:{' '}
        {INCLUDES.filter(([k]) => s[k]).map(([, label]) => label).join(', ') || 'nothing extra'}
      </div>
      <div className="row gap">
        {!readOnly && (
          <>
            <button className="btn small" onClick={() => test.mutate()} disabled={test.isPending} data-testid="send-test">
              Send test event
            </button>
            <button className="btn small" onClick={() => update.mutate({ active: !s.active })} disabled={update.isPending}>
              {s.active ? 'Disable' : 'Enable'}
            </button>
            <button
              className="btn small"
              onClick={() =>
                setEditing({
                  url: s.url,
                  secret: '',
                  levelFilter: s.levelFilter.filter(among(LEVELS)),
                  triggerFilter: s.triggerFilter.filter(among(TRIGGERS)),
                  active: s.active,
                  includeFinalOutput: s.includeFinalOutput,
                  includeTraceSpans: s.includeTraceSpans,
                  includeRateLimits: s.includeRateLimits,
                  includeUsageData: s.includeUsageData,
                })
              }
            >
              Edit
            </button>
            <ConfirmButton confirmLabel="Delete subscription" onConfirm={() => remove.mutate()}>
              Delete
            </ConfirmButton>
          </>
        )}
        <span className="grow" />
        <button className="btn ghost small" onClick={() => setOpen(!open)}>
          {open ? 'Hide deliveries' : 'Show deliveries'}
        </button>
      </div>
      <ErrorBox error={update.error ?? remove.error ?? test.error} />
      {editing && (
        <SubscriptionEditor
          value={editing}
          onChange={setEditing}
          onCancel={() => setEditing(null)}
          onSubmit={() => {
            const { secret, ...rest } = editing;
            update.mutate({ ...rest, ...(secret ? { secret } : {}) });
          }}
          pending={update.isPending}
          error={update.error}
          submitLabel="Save"
          secretHelp={s.hasSecret ? 'Leave empty to keep the current secret.' : 'Optional; at least 8 characters.'}
        />
      )}
      {open && <Deliveries subscriptionId={s.id} workflowId={workflowId} readOnly={readOnly} />}
    </section>
  );
}

function Deliveries({ subscriptionId, workflowId, readOnly }: { subscriptionId: string; workflowId: string; readOnly: boolean }) {
  const client = useQueryClient();
  const deliveries = useInfiniteQuery({
    queryKey: ['deliveries', subscriptionId],
    queryFn: ({ pageParam }) =>
      answer(
        api.GET('/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/deliveries', {
          params: { path: { workflowId, subscriptionId }, query: pageParam ? { limit: 20, cursor: pageParam } : { limit: 20 } },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Follow pending deliveries until they settle.
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.data.some((d) => d.status === 'pending')) ? 2000 : 10_000,
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      answer(
        api.POST('/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/deliveries/{deliveryId}/redeliver', {
          params: { path: { workflowId, subscriptionId, deliveryId } },
        }),
      ),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['deliveries', subscriptionId] }),
  });
  const list = deliveries.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <div className="deliveries">
      <h4>Deliveries</h4>
      <ErrorBox error={redeliver.error} />
      <QueryView query={deliveries} what="deliveries" retry list={list} empty="No deliveries yet. Run the workflow or send a test event.">
        {list.map((d) => (
          <details key={d.id} className="delivery" data-testid="delivery" data-status={d.status}>
            <summary>
              <DeliveryBadge status={d.status} />
              <span className="small">{formatTime(d.createdAt)}</span>
              <span className="small muted">
                {d.executionId ? `execution ${d.executionId}` : 'test event'} · {d.attemptCount} attempt{d.attemptCount === 1 ? '' : 's'}
                {d.lastStatusCode ? ` · HTTP ${d.lastStatusCode}` : ''}
                {d.nextAttemptAt ? ` · next try ${formatTime(d.nextAttemptAt)}` : ''}
              </span>
              <button
                className="btn small"
                onClick={(e) => {
                  e.preventDefault();
                  redeliver.mutate(d.id);
                }}
                disabled={readOnly || redeliver.isPending}
                title={readOnly ? VIEWER_HINT : undefined}
              >
                Redeliver
              </button>
            </summary>
            <Table className="compact" columns={['#', 'Started', 'Status', 'Duration', 'Error']}>
              {d.attempts.map((a) => (
                <tr key={a.attempt}>
                  <td>{a.attempt}</td>
                  <td>{formatTime(a.startedAt)}</td>
                  <td>{a.statusCode ?? '—'}</td>
                  <td>{formatDuration(a.durationMs)}</td>
                  <td className="error-text">{a.error ?? ''}</td>
                </tr>
              ))}
            </Table>
            <div className="small muted">
              Delivery <code>{d.id}</code> · event <code>{d.eventId}</code>
            </div>
            <JsonView value={d.payload} maxHeight={240} />
          </details>
        ))}
        {deliveries.hasNextPage && (
          <button className="btn small" onClick={() => void deliveries.fetchNextPage()} disabled={deliveries.isFetchingNextPage}>
            Load more
          </button>
        )}
      </QueryView>
    </div>
  );
}

function DeliveryBadge({ status }: { status: Delivery['status'] }) {
  if (status === 'succeeded') return <Badge tone="ok">delivered</Badge>;
  if (status === 'failed') return <Badge tone="error">failed</Badge>;
  return <Badge tone="warn">pending</Badge>;
}
