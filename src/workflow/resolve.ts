// Substituting references inside config values at run time (docs/workflows.md 3: exact references keep their type).
import { isPlainObject } from './plain.js';
import { findReferences, type BlockReference, type PathSegment, type Reference } from './references.js';
import { jsonSize, TextTooLongError } from './size.js';

export interface ReferenceResolver {
  /** The referenced value in the current scope; undefined when it does not exist. */
  block(ref: BlockReference): unknown;
  /** Throws when the variable is not defined: a silently empty secret is worse than a failed run. */
  env(name: string): string;
  /** True for a reference to leave as written (one the block fills in itself); `path` is where its text sits. */
  keep?(ref: Reference, path: readonly PathSegment[]): boolean;
}

/**
 * Follows own properties only, so `<x.constructor>` or `<x.__proto__>` cannot reach prototypes.
 * Number segments index arrays and also address keys like "0" on objects.
 */
export function getPath(value: unknown, path: PathSegment[]): unknown {
  let current = value;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    const key = String(segment);
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function stringifyForTemplate(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    // Cycles cannot be JSON; a template must still render rather than fail the block.
    return String(value);
  }
}

/**
 * The references of every string in a value that does not change (a deployed, frozen config), found once: each run
 * of it looks them up instead of scanning its texts again.
 */
export interface ScannedValue {
  /** False when no string in it holds a reference: it resolves to itself. */
  hasReferences: boolean;
  references(text: string): Reference[];
}

export function scanValue(value: unknown): ScannedValue {
  const found = new Map<string, Reference[]>();
  let hasReferences = false;
  const walk = (item: unknown): void => {
    if (typeof item === 'string') {
      if (found.has(item)) return;
      const references = findReferences(item);
      found.set(item, references);
      if (references.length > 0) hasReferences = true;
    } else if (Array.isArray(item)) {
      item.forEach(walk);
    } else if (isPlainObject(item)) {
      Object.values(item).forEach(walk);
    }
  };
  walk(value);
  return { hasReferences, references: (text) => found.get(text) ?? findReferences(text) };
}

/**
 * Returns a new value with every string resolved; the input is not modified. Values that come out of the
 * resolver are never scanned again, so data cannot smuggle in references of its own. A text that references fill
 * in is counted piece by piece and given up (TextTooLongError) before it grows past `maxTextLength` characters:
 * one `<api.q>` written 60 times must not first become a 600 MB string.
 */
export function resolveValue(value: unknown, resolver: ReferenceResolver, maxTextLength = Infinity, scanned?: ScannedValue): unknown {
  const scan = scanned ? scanned.references : findReferences;
  return resolveAt(value, resolver, maxTextLength, [], scan);
}

type Scan = (text: string) => Reference[];

function resolveAt(value: unknown, resolver: ReferenceResolver, maxTextLength: number, path: PathSegment[], scan: Scan): unknown {
  if (typeof value === 'string') return resolveString(value, resolver, maxTextLength, path, scan);
  if (Array.isArray(value)) return value.map((item, index) => resolveAt(item, resolver, maxTextLength, [...path, index], scan));
  if (isPlainObject(value)) {
    // fromEntries defines properties, so a "__proto__" key stays data instead of replacing the prototype.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveAt(item, resolver, maxTextLength, [...path, key], scan)]),
    );
  }
  return value;
}

function resolveString(text: string, resolver: ReferenceResolver, maxTextLength: number, path: PathSegment[], scan: Scan): unknown {
  const found = scan(text);
  const keep = resolver.keep;
  const references = keep ? found.filter((ref) => !keep(ref, path)) : found;
  if (references.length === 0) return text;
  const [first] = references;
  if (references.length === 1 && first.start === 0 && first.end === text.length) return lookUp(first, resolver);
  let result = '';
  const tooLong = (added: number) => result.length + added > maxTextLength;
  const add = (piece: string) => {
    if (tooLong(piece.length)) throw new TextTooLongError(maxTextLength);
    result += piece;
  };
  let cursor = 0;
  for (const reference of references) {
    add(text.slice(cursor, reference.start));
    const value = lookUp(reference, resolver);
    // An object is measured before it is written out as JSON: writing it is what would take the time.
    const asJson = typeof value === 'object' && value !== null && maxTextLength !== Infinity;
    if (asJson && tooLong(jsonSize(value, maxTextLength - result.length))) throw new TextTooLongError(maxTextLength);
    add(stringifyForTemplate(value));
    cursor = reference.end;
  }
  add(text.slice(cursor));
  return result;
}

function lookUp(reference: Reference, resolver: ReferenceResolver): unknown {
  return reference.kind === 'env' ? resolver.env(reference.name) : resolver.block(reference);
}
