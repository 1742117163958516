// Freezes a value and everything in it, so one copy shared by every run (a cached deployed state, what is compiled
// from it once) cannot be changed by one of them. Iterative: a deeply nested value does not overflow the stack.
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object' || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const child of Object.values(item)) stack.push(child);
  }
  return value;
}
