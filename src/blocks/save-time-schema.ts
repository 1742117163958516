// Configs are validated twice: when a state is saved (raw, references still in place) and when a block runs
// (after resolution). At save time `"<start.ms>"` cannot be a number yet, so issues at values that hold a
// reference are deferred to run time; every other issue (a missing field, a bad literal) is reported at once. A block's
// rules about the config as written (BlockDefinition.writtenConfigIssues) are reported at once too.
import { z } from 'zod';
import { findReferences, getPath, type PathSegment } from '../workflow/index.js';
import type { WrittenConfigIssue } from './types.js';

export function saveTimeSchema(runtime: z.ZodType, writtenIssues?: (config: unknown) => WrittenConfigIssue[]): z.ZodType {
  return z.unknown().superRefine((config, ctx) => {
    for (const issue of writtenIssues?.(config) ?? []) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    const parsed = runtime.safeParse(config);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      const path = issue.path.filter((segment): segment is PathSegment => typeof segment !== 'symbol');
      if (reachesReference(config, path)) continue;
      ctx.addIssue({ code: 'custom', path, message: issue.message });
    }
  });
}

/** True when a value on the way to the issue, or anything under it, holds a reference. */
function reachesReference(config: unknown, path: PathSegment[]): boolean {
  for (let depth = 0; depth <= path.length; depth++) {
    const value = getPath(config, path.slice(0, depth));
    if (typeof value === 'string') return hasReference(value);
  }
  return containsReference(getPath(config, path), 0);
}

function hasReference(text: string): boolean {
  return findReferences(text).length > 0;
}

function containsReference(value: unknown, depth: number): boolean {
  // Depth is bounded by validateState's own nesting limit before schemas run; this guard is belt and braces.
  if (depth > 64) return false;
  if (typeof value === 'string') return hasReference(value);
  if (Array.isArray(value)) return value.some((item) => containsReference(item, depth + 1));
  if (typeof value === 'object' && value !== null) {
    return Object.values(value).some((item) => containsReference(item, depth + 1));
  }
  return false;
}
