// Parsing of `<block.path>` and `{{ENV}}` references inside config strings (docs/workflows.md 3).
import { normalizeBlockName } from './names.js';
import { scanReferences, type PathSegment } from './reference-syntax.js';

export type { PathSegment };

export interface BlockReference {
  kind: 'block';
  /** The text as written, brackets included, e.g. `<My Block.items[0]>`. */
  raw: string;
  /** Normalized (see normalizeBlockName), ready for a name-index lookup. */
  name: string;
  path: PathSegment[];
  start: number;
  /** Exclusive. */
  end: number;
}

export interface EnvReference {
  kind: 'env';
  raw: string;
  name: string;
  start: number;
  end: number;
}

export type Reference = BlockReference | EnvReference;

export function findReferences(text: string): Reference[] {
  return scanReferences(text).map((ref) => (ref.kind === 'env' ? ref : { ...ref, name: normalizeBlockName(ref.name) }));
}
