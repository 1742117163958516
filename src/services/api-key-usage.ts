// `lastUsedAt` of API keys (docs/api.md 2) without a write per request: uses are noted in memory and written together
// every few seconds (by the runner heartbeat, runs/runners.ts), and before anything lists keys, so a list never lags
// behind this process's own requests. At most one flush interval of uses is lost if the process dies.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { toJsonText } from '../db/json.js';
import { RELAXED_COMMIT, RELAXED_COMMIT_TAKEN } from '../db/relaxed.js';

export interface KeyUsage {
  touch(keyId: string): void;
  flush(): Promise<void>;
}

export function createKeyUsage(db: Db): KeyUsage {
  let pending = new Map<string, number>();
  return {
    touch(keyId) {
      pending.set(keyId, Date.now());
    },
    async flush() {
      if (pending.size === 0) return;
      const uses = pending;
      pending = new Map();
      const rows = [...uses].map(([id, at]) => ({ id, at: new Date(at).toISOString() }));
      try {
        await db.execute(sql`
          with ${RELAXED_COMMIT}
          update api_keys k set last_used_at = x.at
          from jsonb_to_recordset(${toJsonText(rows)}::jsonb) as x(id text, at timestamptz)
          where k.id = x.id and (k.last_used_at is null or k.last_used_at < x.at)
            and ${RELAXED_COMMIT_TAKEN}`);
      } catch (err) {
        // Kept for the next flush unless newer uses replaced them.
        for (const [id, at] of uses) if (!pending.has(id)) pending.set(id, at);
        throw err;
      }
    },
  };
}
