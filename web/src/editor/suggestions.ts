// Autocomplete of `<block.field>` references and `{{ENV}}` variables, shared by the plain inputs (RefInput.tsx) and
// the code editor (CodeField.tsx): what is being typed before the caret, and which of the reachable names match it.
// The editor provides the reachable names (SuggestionsContext) for the selected block.
import { createContext } from 'react';
import { normalizeName } from './catalog.js';

export interface Suggestion {
  /** Inserted text, brackets included: `<fetch.data>` or `{{API_TOKEN}}`. */
  value: string;
  detail?: string;
}

export const SuggestionsContext = createContext<Suggestion[]>([]);

/** A reference being typed: `start`..`end` is the text a chosen suggestion replaces (the caret is at `end`). */
export interface Token {
  kind: 'block' | 'env';
  query: string;
  start: number;
  end: number;
}

/** The reference being typed just before `caret` in `text`, or null when the caret is not in one. */
export function tokenAt(text: string, caret: number): Token | null {
  const before = text.slice(0, caret);
  const block = /<([A-Za-z0-9_ .[\]-]*)$/.exec(before);
  if (block) return { kind: 'block', query: normalizeName(block[1]), start: caret - block[0].length, end: caret };
  const env = /\{\{\s*([A-Za-z0-9_]*)$/.exec(before);
  if (env) return { kind: 'env', query: env[1].toLowerCase(), start: caret - env[0].length, end: caret };
  return null;
}

export const MAX_MATCHES = 12;

/** The suggestions of the token's kind that contain what was typed, in the editor's order. */
export function matchesFor(all: readonly Suggestion[], token: Token | null): Suggestion[] {
  if (!token) return [];
  return all
    .filter((s) => (token.kind === 'block' ? s.value.startsWith('<') : s.value.startsWith('{{')))
    .filter((s) => s.value.toLowerCase().replace(/[<>{}]/g, '').includes(token.query))
    .slice(0, MAX_MATCHES);
}
