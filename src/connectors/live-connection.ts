// A pooled broker connection may have been dropped by the broker while idle in the cache: check it before use, and
// open a new one instead of failing the run.
import type { ConnectionCache, ConnectionOpener } from './connection-cache.js';

export async function useLiveConnection<T, R>(
  connections: ConnectionCache,
  credential: { id: string; version: string },
  opener: ConnectionOpener<T>,
  isAlive: (connection: T) => boolean,
  use: (connection: T) => Promise<R>,
): Promise<R> {
  const alive = await connections.use(credential, opener, async (connection) => isAlive(connection));
  if (!alive) await connections.discard(credential, opener.kind);
  return connections.use(credential, opener, use);
}
