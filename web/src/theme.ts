// Light or dark: the system's setting unless the user chose one with the top bar's toggle (kept in this browser).
// The stylesheet declares each colour for both (light-dark()); this only pins `color-scheme` through data-theme.
import { useSyncExternalStore } from 'react';

const CHANGED = 'sluice:theme-changed';
export type Theme = 'light' | 'dark';
const KEY = 'sluice:theme';

export function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

export function currentTheme(): Theme {
  return storedTheme() ?? (window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
}

export function applyTheme(theme: Theme | null): void {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

export function chooseTheme(theme: Theme): void {
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // Not kept (storage disabled): it still applies until the page is reloaded.
  }
  applyTheme(theme);
  window.dispatchEvent(new Event(CHANGED));
}

/** The canvas library's colour mode: the user's choice, else the system's (React Flow follows it then). */
export function useColorMode(): Theme | 'system' {
  return useSyncExternalStore(
    (onChange) => {
      window.addEventListener(CHANGED, onChange);
      return () => window.removeEventListener(CHANGED, onChange);
    },
    () => storedTheme() ?? 'system',
  );
}
