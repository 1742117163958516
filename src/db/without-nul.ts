// PostgreSQL cannot store U+0000 in text or jsonb. A run's input and everything its blocks produce end up in its log,
// so NUL characters become U+FFFD (the replacement character) instead of failing the log write with a 500.
const NUL = /\u0000/g;

export function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(NUL, '\uFFFD');
  if (Array.isArray(value)) return value.map(withoutNul);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.replace(NUL, '\uFFFD'), withoutNul(item)]));
  }
  return value;
}
