// currentPeriod (src/services/limits.ts) names the month a run's cost is charged to; it remembers the last month it
// answered, so each answer must still be the month of the time asked, whatever was asked before.
import { describe, expect, it } from 'vitest';
import { currentPeriod } from '../../src/services/limits.js';

describe('currentPeriod', () => {
  it("names the UTC month of the time asked, at the months' edges and out of order", () => {
    const endOfNovember = Date.UTC(2026, 10, 30, 23, 59, 59, 999);
    const cases: Array<[number, string]> = [
      [endOfNovember, '2026-11-01'],
      [endOfNovember + 1, '2026-12-01'],
      [Date.UTC(2026, 10, 1), '2026-11-01'],
      [Date.UTC(2026, 10, 1) - 1, '2026-10-01'],
      [Date.UTC(2027, 0, 1) - 1, '2026-12-01'],
      [Date.UTC(2027, 0, 1), '2027-01-01'],
      [Date.UTC(2028, 1, 29, 12), '2028-02-01'],
      [endOfNovember, '2026-11-01'],
    ];
    for (const [ms, period] of cases) expect(currentPeriod(ms), new Date(ms).toISOString()).toBe(period);
    expect(currentPeriod()).toBe(`${new Date().toISOString().slice(0, 7)}-01`);
  });
});
