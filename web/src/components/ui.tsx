// Small shared pieces: loading and error states, a query's states, tables, buttons that ask before destroying, copy,
// JSON view, time.
import { useEffect, useState, type ReactNode } from 'react';
import { blockErrorLabel } from '../../../src/workflow/block-errors.js';
import { ApiError, errorMessage } from '../api';

export function Spinner({ label }: { label?: string }) {
  return <span className="spinner" role="status" aria-label={label ?? 'Loading'} />;
}

export function Loading({ what }: { what?: string }) {
  return (
    <div className="loading">
      <Spinner /> Loading{what ? ` ${what}` : ''}…
    </div>
  );
}

export function ErrorBox({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (!error) return null;
  const details = error instanceof ApiError ? error.details : [];
  return (
    <div className="error-box" role="alert">
      <strong>{errorMessage(error)}</strong>
      {details.length > 0 && (
        <ul>
          {details.slice(0, 20).map((d, i) => (
            <li key={i}>
              {d.path && <code>{d.path}</code>} {d.message}
            </li>
          ))}
        </ul>
      )}
      {onRetry && (
        <button className="btn small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** What QueryView reads of a TanStack query, a plain or an infinite one. */
type QueryState<T> = { refetch: () => Promise<unknown> } & (
  | { isPending: true; isError: false }
  | { isPending: false; isError: true; error: unknown }
  | { isPending: false; isError: false; data: T }
);

/**
 * What a query shows: Loading (of `what`), its error (with "Try again" when `retry`), or what `children` make of its
 * data. With `empty`, an empty list shows that note instead: the data itself, or `list` when the page shows a
 * filtered or paged list of it. With `back` (a link), the error fills the page and offers the way back.
 */
export function QueryView<T>({
  query,
  what,
  retry = false,
  back,
  empty,
  list,
  children,
}: {
  query: QueryState<T>;
  what?: string;
  retry?: boolean;
  back?: ReactNode;
  empty?: ReactNode;
  list?: readonly unknown[];
  children: ReactNode | ((data: T) => ReactNode);
}) {
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) {
    const box = <ErrorBox error={query.error} onRetry={retry ? () => void query.refetch() : undefined} />;
    return back ? (
      <div className="page">
        {box}
        {back}
      </div>
    ) : (
      box
    );
  }
  const items = list ?? (Array.isArray(query.data) ? query.data : undefined);
  if (empty !== undefined && items?.length === 0) return <Empty>{empty}</Empty>;
  return typeof children === 'function' ? children(query.data) : children;
}

/** A table of rows under a head row of `columns` (none: no head); '' heads a column of row actions. */
export function Table({
  columns,
  className,
  testId,
  children,
}: {
  columns?: ReactNode[];
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <table className={className ? `table ${className}` : 'table'} data-testid={testId}>
      {columns && (
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i}>{column}</th>
            ))}
          </tr>
        </thead>
      )}
      <tbody>{children}</tbody>
    </table>
  );
}

/** The last cell of a row: a destructive action that asks for a second click. */
export function ConfirmCell({ label, confirmLabel = label, onConfirm }: { label: string; confirmLabel?: string; onConfirm: () => void }) {
  return (
    <td className="actions">
      <ConfirmButton confirmLabel={confirmLabel} onConfirm={onConfirm}>
        {label}
      </ConfirmButton>
    </td>
  );
}

/** A destructive button that asks for a second click instead of a browser dialog. */
export function ConfirmButton({
  children,
  confirmLabel = 'Confirm',
  keepLabel = 'Cancel',
  onConfirm,
  disabled,
  className = 'btn danger small',
}: {
  children: ReactNode;
  confirmLabel?: string;
  /** The button that takes the question back. */
  keepLabel?: string;
  onConfirm: () => void;
  disabled?: boolean;
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!asking) return;
    const timer = setTimeout(() => setAsking(false), 4000);
    return () => clearTimeout(timer);
  }, [asking]);
  if (asking) {
    return (
      <span className="confirm">
        <button
          className={className}
          disabled={disabled}
          onClick={() => {
            setAsking(false);
            onConfirm();
          }}
        >
          {confirmLabel}
        </button>
        <button className="btn ghost small" onClick={() => setAsking(false)}>
          {keepLabel}
        </button>
      </span>
    );
  }
  return (
    <button className={className} disabled={disabled} onClick={() => setAsking(true)}>
      {children}
    </button>
  );
}

export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Without clipboard permission (plain http on another host): fall back to a selection copy.
    const area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      className="btn small"
      onClick={() => {
        void copyText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

export function JsonView({ value, maxHeight }: { value: unknown; maxHeight?: number }) {
  const text = value === undefined ? 'undefined' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <pre className="json" style={maxHeight ? { maxHeight } : undefined}>
      {text}
    </pre>
  );
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return date.toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return '—';
  return `$${usd.toFixed(usd < 0.01 ? 6 : 4)}`;
}

export function Badge({ tone, children }: { tone: 'ok' | 'error' | 'warn' | 'info' | 'muted'; children: ReactNode }) {
  return <span className={`badge ${tone}`}>{children}</span>;
}

/** A log's level: `error` for a run that failed or was stopped, else `info`. */
export function LevelBadge({ level }: { level: string | null | undefined }) {
  return level === 'error' ? <Badge tone="error">error</Badge> : <Badge tone="ok">info</Badge>;
}

/**
 * How a listed run ended: its level, except that a run which succeeded while blocks reported errors (an API block's
 * 500) says so in amber rather than passing for a clean success.
 */
export function OutcomeBadge({ level, blockErrorCount }: { level: string | null | undefined; blockErrorCount: number }) {
  if (level === 'error' || blockErrorCount === 0) return <LevelBadge level={level} />;
  return (
    <span data-testid="block-errors" data-count={blockErrorCount}>
      <Badge tone="warn">Succeeded · {blockErrorLabel(blockErrorCount)}</Badge>
    </span>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}
