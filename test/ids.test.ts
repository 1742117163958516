// Execution ids begin with their time, so their logs' primary key grows at its right edge (src/ids.ts); a log's id
// is its execution id's pair (issue 28: stored bytes).
import { describe, expect, it } from 'vitest';
import { newExecutionId, pairedLogId } from '../src/ids.js';

describe('execution ids', () => {
  it('sort in the order they were made, byte for byte and under a natural-language collation, and pair with a log id', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(newExecutionId());
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const english = new Intl.Collator('en');
    expect([...made].sort()).toEqual(made);
    expect([...made].sort(english.compare)).toEqual(made);
    for (const id of made) {
      expect(id).toMatch(/^exec_[0-9a-z]{9}[0-9A-Za-z]{11}$/);
      expect(pairedLogId(id)).toBe(`log_${id.slice(5)}`);
    }
    // Two made in the same millisecond still differ (65 random bits).
    expect(new Set(Array.from({ length: 1000 }, newExecutionId)).size).toBe(1000);
    // Only an execution id of that shape has a pair.
    for (const other of ['exec_short', `run_${made[0]!.slice(5)}`, `${made[0]}x`]) expect(pairedLogId(other)).toBeUndefined();
  });
});
