// Replaces `<block.path>` references in user code with plain identifiers, so the referenced values reach the
// sandbox as data (inputs) and are never spliced into the source text.

export interface ReferenceSpan {
  /** Offset of the reference's first character in `code`. */
  start: number;
  /** Offset just past its last character. */
  end: number;
}

export const defaultReferenceName = (index: number) => `__ref${index}`;

/**
 * `names[i]` is the identifier that replaced `refs[i]`; pass the value of reference i as input `names[i]`.
 * Spans must be sorted and non-overlapping (as the workflow module reports them). A space is added where the
 * identifier would otherwise fuse with a neighbouring identifier character (`a<x.y>` → `a __ref0`).
 */
export function rewriteReferences(
  code: string,
  refs: ReferenceSpan[],
  name: (index: number) => string = defaultReferenceName,
): { code: string; names: string[] } {
  const names: string[] = [];
  let out = '';
  let cursor = 0;
  refs.forEach((ref, index) => {
    if (!Number.isInteger(ref.start) || !Number.isInteger(ref.end) || ref.start < cursor || ref.end < ref.start || ref.end > code.length) {
      throw new RangeError(`Reference span ${index} [${ref.start}, ${ref.end}) is out of order, overlapping or outside the code`);
    }
    const identifier = name(index);
    if (!/^[A-Za-z_$][\w$]*$/.test(identifier)) throw new RangeError(`Reference name "${identifier}" is not a plain identifier`);
    const before = code.slice(cursor, ref.start);
    const previous = before.length > 0 ? before[before.length - 1] : out[out.length - 1];
    const glueBefore = previous !== undefined && /[\w$]/.test(previous) ? ' ' : '';
    const glueAfter = /^[\w$]/.test(code.slice(ref.end)) ? ' ' : '';
    out += before + glueBefore + identifier + glueAfter;
    names.push(identifier);
    cursor = ref.end;
  });
  return { code: out + code.slice(cursor), names };
}
