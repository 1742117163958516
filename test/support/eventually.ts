// Waiting for asynchronous work in tests: poll with a deadline, never a fixed sleep (too short is flaky, too long is
// slow).

/** Polls until `check` returns a value (not undefined/false), or fails after the deadline naming what it waited for. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
