// What the editor knows of each block type. The palette entries, form fields, outputs and default configs are the
// server's block catalogue (src/blocks/forms.ts, checked there against the config schemas); this module adds what
// only the editor needs: lookups, new names, the policy bounds of the retry form, and (from starter.ts) ids and the
// starter state.
import { normalizeBlockName as normalizeName } from '../../../src/workflow/names.js';
import { BLOCK_FORMS, loopForm, parallelForm, type BlockForm, type FormField } from '../../../src/blocks/forms.js';
import {
  MAX_ATTEMPTS,
  MAX_BACKOFF_FACTOR,
  MAX_BACKOFF_MS,
  MAX_BLOCK_TIMEOUT_MS,
  POLICY_DEFAULTS,
} from '../../../src/workflow/policy.js';

export type BlockTypeSpec = BlockForm;
export type FieldSpec = FormField;

export const BLOCK_TYPES: readonly BlockTypeSpec[] = BLOCK_FORMS;

export const BLOCK_TYPE_BY_NAME: Record<string, BlockTypeSpec> = Object.fromEntries(BLOCK_TYPES.map((t) => [t.type, t]));

export function specOf(type: string): BlockTypeSpec {
  return (
    BLOCK_TYPE_BY_NAME[type] ?? {
      type,
      label: type,
      baseName: type,
      group: 'Blocks',
      color: '#888',
      icon: '?',
      description: 'Unknown block type',
      fields: [],
      outputs: [],
      defaultConfig: () => ({}),
    }
  );
}

/** How references find blocks by name: the server's own rule (src/workflow/names.ts). */
export { normalizeBlockName as normalizeName } from '../../../src/workflow/names.js';

/** "API 1", "API 2"… the first base name not yet taken (names compare lowercased without spaces). */
export function uniqueName(base: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map(normalizeName));
  if (!used.has(normalizeName(base)) && base === 'Start') return base;
  for (let n = 1; ; n++) {
    const candidate = `${base} ${n}`;
    if (!used.has(normalizeName(candidate))) return candidate;
  }
}

export { newBlockId, starterState } from './starter.js';

/** Bounds and defaults of a block policy (the server checks them: src/workflow/policy.ts). */
export const POLICY = {
  maxAttempts: MAX_ATTEMPTS,
  /** What the editor proposes when retries are switched on. */
  defaultAttempts: 3,
  backoffMs: POLICY_DEFAULTS.backoffMs,
  backoffFactor: POLICY_DEFAULTS.backoffFactor,
  maxBackoffMs: MAX_BACKOFF_MS,
  maxBackoffFactor: MAX_BACKOFF_FACTOR,
  maxTimeoutMs: MAX_BLOCK_TIMEOUT_MS,
} as const;

/** Containers take a time limit and onError, but are never retried as a whole. */
export const canRetry = (type: string) => !specOf(type).container;

/** Container settings live in state.loops / state.parallels; the editor keeps them in the block's config. */
export const CONTAINER_SETTING_KEYS: Record<string, string[]> = Object.fromEntries(
  [loopForm, parallelForm].map((form) => [form.type, form.fields.map((field) => field.key)]),
);
