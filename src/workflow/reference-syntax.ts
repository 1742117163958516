// The syntax of `<block.path>` and `{{ENV}}` references (docs/workflows.md 3), with block names as written:
// references.ts normalizes them. Imports nothing, so any module of workflow/ can scan references (flow-control.ts).

export type PathSegment = string | number;

export type ScannedReference =
  | { kind: 'block'; raw: string; /** As written. */ name: string; path: PathSegment[]; start: number; end: number }
  | { kind: 'env'; raw: string; name: string; start: number; end: number };

// One alternation so block and env references come out in order and never overlap.
// A block reference needs at least one path segment: that is what keeps `<div>` and `a < b` plain text.
// `(?<! )` stops a name from ending in a space, so `<a .b>` is not a reference. Every quantified part is
// followed by a character it cannot match, so matching stays linear on hostile input.
const REFERENCE_PATTERN =
  /<([A-Za-z_][A-Za-z0-9_ -]*)(?<! )((?:\.[A-Za-z_][A-Za-z0-9_]*|\[[0-9]+\])+)>|\{\{[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*\}\}/g;

const SEGMENT_PATTERN = /\.([A-Za-z_][A-Za-z0-9_]*)|\[([0-9]+)\]/g;

export function scanReferences(text: string): ScannedReference[] {
  const references: ScannedReference[] = [];
  for (const match of text.matchAll(REFERENCE_PATTERN)) {
    const raw = match[0];
    const start = match.index;
    const end = start + raw.length;
    const envName = match[3];
    if (envName !== undefined) {
      references.push({ kind: 'env', raw, name: envName, start, end });
    } else {
      references.push({ kind: 'block', raw, name: match[1], path: parsePath(match[2]), start, end });
    }
  }
  return references;
}

function parsePath(segments: string): PathSegment[] {
  const path: PathSegment[] = [];
  for (const match of segments.matchAll(SEGMENT_PATTERN)) {
    path.push(match[1] !== undefined ? match[1] : Number(match[2]));
  }
  return path;
}
