// How deeply arrays and objects nest in a value, found without recursion (the value may be hostile).

/** True when `value` nests arrays/objects more than `max` levels deep (a scalar is depth 0, `[]` depth 1). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ item: unknown; depth: number }> = [{ item: value, depth: 0 }];
  while (stack.length > 0) {
    const { item, depth } = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push({ item: child, depth: depth + 1 });
    }
  }
  return false;
}
