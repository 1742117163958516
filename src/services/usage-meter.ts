// The usage check on every run (docs/api.md 4.8: 402 once the period's cost reaches the plan's limit) without a
// database read per run. Each process keeps the owner's current-period cost in memory: read from `usage_periods` on
// first use, raised at once by the runs this process records (run-recorder.ts adds the cost in the same commit as the
// log), and re-read in the background when it is older than REFRESH_MS, so other processes' spending shows within
// about a second. Overshoot bound: a run is admitted on a figure that may miss up to ~REFRESH_MS of other processes'
// spending, and — as before caching — runs already admitted are charged when they finish, so the limit can be passed
// by what is in flight when it is reached.
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { asPlan, currentPeriod, getUsage, type UsageState } from './limits.js';

const REFRESH_MS = 1_000;
/** Older than this, a figure is not used at all: the caller waits for a fresh one. */
const MAX_AGE_MS = 10_000;

interface Reading {
  period: string;
  cost: number;
  readAt: number;
  refreshing?: Promise<void>;
}

export interface UsageMeter {
  /** The owner's usage as this process knows it (fresh within about a second). */
  current(owner: { id: string; plan: string }): Promise<UsageState>;
  /** Called once a run's cost is committed. */
  add(ownerId: string, costUsd: number): void;
}

export function createUsageMeter(db: Db, config: Config): UsageMeter {
  const readings = new Map<string, Reading>();

  async function read(owner: { id: string; plan: string }): Promise<void> {
    const period = currentPeriod();
    const usage = await getUsage(db, config, owner);
    readings.set(owner.id, { period, cost: usage.currentPeriodCost, readAt: Date.now() });
  }

  return {
    async current(owner) {
      let reading = readings.get(owner.id);
      const age = reading ? Date.now() - reading.readAt : Infinity;
      if (!reading || reading.period !== currentPeriod() || age > MAX_AGE_MS) {
        await read(owner);
        reading = readings.get(owner.id)!;
      } else if (age > REFRESH_MS && !reading.refreshing) {
        const stale = reading;
        stale.refreshing = read(owner).catch(() => {
          stale.refreshing = undefined;
        });
      }
      const plan = asPlan(owner.plan);
      const limit = config.limits.USAGE_USD[plan];
      return {
        currentPeriodCost: reading.cost,
        limit,
        plan,
        isExceeded: limit !== null && reading.cost >= limit,
      };
    },
    add(ownerId, costUsd) {
      const reading = readings.get(ownerId);
      if (reading && reading.period === currentPeriod() && costUsd > 0) reading.cost += costUsd;
    },
  };
}
