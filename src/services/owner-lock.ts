// Every path that may create the first admin and its Default workspace — first-run setup in the browser, and the
// bootstrap key (SLUICE_BOOTSTRAP_API_KEY at start, `sluice init`) — takes this lock for its transaction. Processes
// starting together on one PostgreSQL (deploy/compose.yaml) then take turns, and the later ones find what the first
// made instead of making a second Default workspace or failing on the unique index of api_keys.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';

/** Arbitrary constant, distinct from the migrations' lock (db/client.ts). */
const OWNER_LOCK_ID = 7_345_113;

/** Held until the surrounding transaction ends; call it first thing in that transaction. */
export async function lockOwnerProvisioning(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${OWNER_LOCK_ID})`);
}
