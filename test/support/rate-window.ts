// The rate limits count in fixed one-minute windows (src/services/limits.ts RATE_WINDOW_MS): a test counting calls
// against one must not straddle a window's end, where the count starts again (seen in CI: a re-run meant to be the
// third call of its minute was the first of the next, and answered 200 instead of 429).
import { RATE_WINDOW_MS } from '../../src/services/limits.js';

/** Waits, when less than `needMs` of the current window is left, for the next window to begin. */
export async function freshRateWindow(needMs = 15_000): Promise<void> {
  const left = RATE_WINDOW_MS - (Date.now() % RATE_WINDOW_MS);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
