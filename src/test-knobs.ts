// Test knobs: environment variables named SLUICE_TEST_* that shorten a wait a test would otherwise sit out (a crash
// bound, a broker's redelivery). They are not settings — docs/operations.md lists none of them, config.ts reads none
// of them — and unset, the production value holds.

/** The whole number of milliseconds in `process.env[name]`, at least `min`, or `fallback` when it is unset. */
export function testKnobMs(name: string, fallback: number, min: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be a whole number of milliseconds, at least ${min}`);
  return value;
}
