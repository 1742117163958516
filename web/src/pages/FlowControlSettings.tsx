// The Deploy tab's flow control settings (docs/workflows.md "Flow control"): a concurrency limit or a singleton, per
// workflow or per key, a throttle and a debounce, the priority of queued runs, and the workflow's time limit ("Long
// runs"). The form writes every setting the state can hold, so saving it never drops one. They are part of the draft: saved with it (through the editor,
// which holds the draft), and in force once deployed.
import { useState, type FormEvent } from 'react';
import { FlowControlSchema, type FlowControl } from '../../../src/workflow/flow-control.js';
import type { EditorHandle } from '../editor/Editor';

type Kind = 'none' | 'concurrency' | 'singleton';

interface Form {
  kind: Kind;
  limit: string;
  key: string;
  onLimit: 'queue' | 'reject' | 'cancel-running';
  maxWaitMs: string;
  singletonMode: 'skip' | 'queue';
  priority: string;
  /** In milliseconds, as the state holds it (empty: the server's bound). */
  timeoutMs: string;
  /** Empty limit: no throttle. */
  throttleLimit: string;
  throttlePeriodMs: string;
  throttleKey: string;
  /** Empty period: no debounce. */
  debouncePeriodMs: string;
  debounceMaxWaitMs: string;
  debounceKey: string;
}

function formOf(flow: FlowControl | undefined): Form {
  return {
    kind: flow?.concurrency ? 'concurrency' : flow?.singleton ? 'singleton' : 'none',
    limit: String(flow?.concurrency?.limit ?? 1),
    key: flow?.concurrency?.key ?? flow?.singleton?.key ?? '',
    onLimit: flow?.concurrency?.onLimit ?? 'queue',
    maxWaitMs: String(flow?.concurrency?.maxWaitMs ?? 0),
    singletonMode: flow?.singleton?.mode ?? 'skip',
    priority: flow?.priority === undefined ? '' : String(flow.priority),
    timeoutMs: flow?.timeoutMs === undefined ? '' : String(flow.timeoutMs),
    throttleLimit: flow?.throttle ? String(flow.throttle.limit) : '',
    throttlePeriodMs: String(flow?.throttle?.periodMs ?? 60_000),
    throttleKey: flow?.throttle?.key ?? '',
    debouncePeriodMs: flow?.debounce ? String(flow.debounce.periodMs) : '',
    debounceMaxWaitMs: flow?.debounce?.maxWaitMs === undefined ? '' : String(flow.debounce.maxWaitMs),
    debounceKey: flow?.debounce?.key ?? '',
  };
}

/** The settings the form says, as the state holds them (empty fields left out). */
function flowOf(form: Form): unknown {
  const keyOf = (text: string) => (text.trim() === '' ? {} : { key: text.trim() });
  const key = keyOf(form.key);
  const number = (text: string) => (text.trim() === '' ? NaN : Number(text));
  const flow: Record<string, unknown> = {};
  if (form.kind === 'concurrency') {
    flow.concurrency = {
      limit: number(form.limit),
      ...key,
      ...(form.onLimit !== 'queue' ? { onLimit: form.onLimit } : {}),
      ...(number(form.maxWaitMs) > 0 ? { maxWaitMs: number(form.maxWaitMs) } : {}),
    };
  }
  if (form.kind === 'singleton') flow.singleton = { ...key, mode: form.singletonMode };
  if (form.throttleLimit.trim() !== '') {
    flow.throttle = { limit: number(form.throttleLimit), periodMs: number(form.throttlePeriodMs), ...keyOf(form.throttleKey) };
  }
  if (form.debouncePeriodMs.trim() !== '') {
    flow.debounce = {
      periodMs: number(form.debouncePeriodMs),
      ...keyOf(form.debounceKey),
      ...(form.debounceMaxWaitMs.trim() !== '' ? { maxWaitMs: number(form.debounceMaxWaitMs) } : {}),
    };
  }
  if (form.priority.trim() !== '') flow.priority = number(form.priority);
  if (form.timeoutMs.trim() !== '') flow.timeoutMs = number(form.timeoutMs);
  return flow;
}

export function FlowControlSettings({ editor: editorOf, readOnly }: { editor: () => EditorHandle | null; readOnly: boolean }) {
  const [form, setForm] = useState<Form>(() => formOf(editorOf()?.flowControl()));
  const [problems, setProblems] = useState<string[]>([]);
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const change = (patch: Partial<Form>) => {
    setForm((f) => ({ ...f, ...patch }));
    setStatus('idle');
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const editor = editorOf();
    if (!editor) return;
    const parsed = FlowControlSchema.safeParse(flowOf(form));
    if (!parsed.success) {
      setProblems(parsed.error.issues.map((issue) => [...issue.path, ''].join('.').replace(/\.$/, '') + (issue.path.length ? ': ' : '') + issue.message));
      return;
    }
    setProblems([]);
    setStatus('saving');
    const empty = Object.keys(parsed.data).length === 0;
    await editor.setFlowControl(empty ? undefined : parsed.data);
    setStatus((await editor.flush()) ? 'saved' : 'failed');
  };

  const keyHelp = 'A reference to the trigger input, e.g. <api.customerId>; empty: one limit for the whole workflow.';
  return (
    <form className="flow-control-form" data-testid="flow-control" onSubmit={(e) => void save(e)}>
      <fieldset disabled={readOnly}>
        <label className="field">
          <span>Limit runs in flight</span>
          <select aria-label="Flow control" value={form.kind} onChange={(e) => change({ kind: e.target.value as Kind })}>
            <option value="none">No limit</option>
            <option value="concurrency">Concurrency limit</option>
            <option value="singleton">Singleton (one at a time)</option>
          </select>
        </label>
        {form.kind === 'concurrency' && (
          <>
            <label className="field">
              <span>At most this many at once</span>
              <input aria-label="Concurrency limit" type="number" min={1} max={1000} value={form.limit} onChange={(e) => change({ limit: e.target.value })} />
            </label>
            <label className="field">
              <span>Over the limit</span>
              <select aria-label="Over the limit" value={form.onLimit} onChange={(e) => change({ onLimit: e.target.value as Form['onLimit'] })}>
                <option value="queue">Wait (async runs queue; sync calls wait up to the time below, then 429)</option>
                <option value="reject">Refuse with 429 CONCURRENCY_LIMIT</option>
                <option value="cancel-running">Cancel the running one and run the new one</option>
              </select>
            </label>
            <label className="field">
              <span>Sync calls wait at most (ms)</span>
              <input aria-label="Maximum wait" type="number" min={0} max={300000} value={form.maxWaitMs} onChange={(e) => change({ maxWaitMs: e.target.value })} />
            </label>
          </>
        )}
        {form.kind === 'singleton' && (
          <label className="field">
            <span>While one runs</span>
            <select aria-label="Singleton mode" value={form.singletonMode} onChange={(e) => change({ singletonMode: e.target.value as Form['singletonMode'] })}>
              <option value="skip">Skip the new call (409 ALREADY_RUNNING)</option>
              <option value="queue">Queue it behind the running one</option>
            </select>
          </label>
        )}
        {form.kind !== 'none' && (
          <label className="field">
            <span>Per key</span>
            <input aria-label="Flow control key" placeholder="<api.customerId>" value={form.key} onChange={(e) => change({ key: e.target.value })} />
            <span className="muted tiny">{keyHelp}</span>
          </label>
        )}
        <fieldset className="field" aria-label="Throttle">
          <legend>Throttle: at most this many starts per period</legend>
          <input aria-label="Throttle limit" type="number" min={1} max={1000} placeholder="no throttle" value={form.throttleLimit} onChange={(e) => change({ throttleLimit: e.target.value })} />
          <input aria-label="Throttle period" type="number" min={100} value={form.throttlePeriodMs} onChange={(e) => change({ throttlePeriodMs: e.target.value })} />
          <input aria-label="Throttle key" placeholder="<api.customerId>" value={form.throttleKey} onChange={(e) => change({ throttleKey: e.target.value })} />
          <span className="muted tiny">Period in ms. Async runs are delayed to the next free start; sync calls get 429 THROTTLED. {keyHelp}</span>
        </fieldset>
        <fieldset className="field" aria-label="Debounce">
          <legend>Debounce: one run per burst of async calls</legend>
          <input aria-label="Debounce period" type="number" min={100} placeholder="no debounce" value={form.debouncePeriodMs} onChange={(e) => change({ debouncePeriodMs: e.target.value })} />
          <input aria-label="Debounce maximum wait" type="number" min={100} placeholder="no bound" value={form.debounceMaxWaitMs} onChange={(e) => change({ debounceMaxWaitMs: e.target.value })} />
          <input aria-label="Debounce key" placeholder="<api.orderId>" value={form.debounceKey} onChange={(e) => change({ debounceKey: e.target.value })} />
          <span className="muted tiny">
            The run starts this many ms after the last call (at most the maximum wait after the first), with the last call's input; sync calls get 409 DEBOUNCED. {keyHelp}
          </span>
        </fieldset>
        <label className="field">
          <span>Priority of queued runs (-100…100)</span>
          <input aria-label="Priority" type="number" min={-100} max={100} placeholder="0" value={form.priority} onChange={(e) => change({ priority: e.target.value })} />
        </label>
        <label className="field">
          <span>Time limit of a run, ms (1000…604800000)</span>
          <input
            aria-label="Time limit"
            type="number"
            min={1000}
            max={604_800_000}
            placeholder="the server's (5 minutes)"
            value={form.timeoutMs}
            onChange={(e) => change({ timeoutMs: e.target.value })}
          />
          <span className="muted tiny">Async, queue and schedule runs get it whole (up to 7 days); sync calls keep the server's bound.</span>
        </label>
        {problems.length > 0 && (
          <ul className="error-text small" data-testid="flow-control-problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        <div className="row gap">
          <button className="btn" type="submit" disabled={readOnly || status === 'saving'}>
            {status === 'saving' ? 'Saving…' : 'Save to the draft'}
          </button>
          {status === 'saved' && <span className="small ok-text">Saved to the draft; deploy to put it in force.</span>}
          {status === 'failed' && <span className="small error-text">The draft could not be saved; see the editor for its problems.</span>}
        </div>
      </fieldset>
    </form>
  );
}
