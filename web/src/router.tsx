// A minimal history-API router: the server answers index.html for every app path (SPA fallback), so deep links and
// reloads land on the right page. Pages with work that is not saved yet hold navigation with a guard
// (useNavigationGuard): every in-app navigation — links, navigate(), the browser's back and forward — asks it first.
import { useEffect, useRef, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Whether leaving for `to` may go ahead (a guard may save first, or ask the user). */
export type NavigationGuard = (to: string) => boolean | Promise<boolean>;
const guards = new Set<{ current: NavigationGuard }>();

async function mayLeave(to: string): Promise<boolean> {
  for (const guard of [...guards]) if (!(await guard.current(to))) return false;
  return true;
}

const snapshot = () => window.location.pathname + window.location.search;
/** Where the app is as far as its pages know: back/forward is undone to it when a guard refuses. */
let shown = snapshot();

window.addEventListener('popstate', () => {
  const to = snapshot();
  const from = shown;
  if (guards.size === 0) {
    shown = to;
    return notify();
  }
  // The browser has moved already: step back while the guard decides, then go if it allows.
  window.history.pushState(null, '', from);
  void mayLeave(to).then((ok) => {
    if (!ok) return;
    window.history.replaceState(null, '', to);
    shown = to;
    notify();
  });
});

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function go(to: string, replace: boolean) {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  shown = to;
  notify();
}

export function navigate(to: string, options: { replace?: boolean } = {}) {
  if (to === snapshot()) return;
  if (guards.size === 0) return go(to, options.replace ?? false);
  void mayLeave(to).then((ok) => ok && go(to, options.replace ?? false));
}

/** Holds every in-app navigation while `guard` is set (pass null when there is nothing to protect). */
export function useNavigationGuard(guard: NavigationGuard | null) {
  const ref = useRef<NavigationGuard>(() => true);
  ref.current = guard ?? (() => true);
  useEffect(() => {
    const entry = { get current() { return ref.current; } };
    guards.add(entry);
    return () => {
      guards.delete(entry);
    };
  }, []);
}

export function useLocation(): { pathname: string; search: URLSearchParams } {
  const current = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(current, window.location.origin);
  return { pathname: url.pathname, search: url.searchParams };
}

/** `/workflows/:id/:tab` against `/workflows/wf_1/api` → `{id: 'wf_1', tab: 'api'}`; optional params end in `?`. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const parts = pattern.split('/').filter(Boolean);
  const actual = pathname.split('/').filter(Boolean);
  if (actual.length > parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const value = actual[i];
    const optional = part.endsWith('?');
    if (value === undefined) {
      if (optional) continue;
      return null;
    }
    if (part.startsWith(':')) params[part.slice(1).replace(/\?$/, '')] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return params;
}

export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}
