// Iterative walks over JSON-like config values: deep or shared structures must not exhaust the stack or
// make the walk revisit the same object.
import { isPlainObject } from '../plain.js';
import type { PathSegment } from '../references.js';

export interface StringLeaf {
  path: PathSegment[];
  text: string;
}

interface Frame {
  value: unknown;
  path: PathSegment[];
}

/** Calls visit for each node in document order; children deeper than maxDepth are not entered. */
function walk(value: unknown, maxDepth: number, visit: (frame: Frame) => void, onTooDeep?: (path: PathSegment[]) => void) {
  const seen = new Set<object>();
  const stack: Frame[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    visit(frame);
    const node = frame.value;
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    if (!Array.isArray(node) && !isPlainObject(node)) continue;
    seen.add(node);
    if (frame.path.length >= maxDepth) {
      onTooDeep?.(frame.path);
      continue;
    }
    const children: Frame[] = Array.isArray(node)
      ? node.map((child: unknown, index) => ({ value: child, path: [...frame.path, index] }))
      : Object.entries(node).map(([key, child]) => ({ value: child, path: [...frame.path, key] }));
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]);
  }
}

export function collectStrings(value: unknown, maxDepth: number): StringLeaf[] {
  const strings: StringLeaf[] = [];
  walk(value, maxDepth, ({ value: node, path }) => {
    if (typeof node === 'string') strings.push({ path, text: node });
  });
  return strings;
}

/** The path of the first container nested deeper than maxDepth, if any. */
export function findTooDeep(value: unknown, maxDepth: number): PathSegment[] | undefined {
  let found: PathSegment[] | undefined;
  walk(value, maxDepth, () => {}, (path) => {
    found ??= path;
  });
  return found;
}
