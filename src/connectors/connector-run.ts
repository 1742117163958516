// What a connector is handed for one use: the process's pooled connections, the address policy its hosts go through,
// and the run's signal (a cancelled run stops waiting and releases what it held).
import { isIP } from 'node:net';
import type { ConnectionCache } from './connection-cache.js';
import type { HostPolicy } from './host-policy.js';

export interface ConnectorRun {
  connections: ConnectionCache;
  policy: HostPolicy;
  signal: AbortSignal;
}

/** The name a TLS certificate is checked against: the host as the credential names it, never a resolved address. */
export function tlsServername(host: string): string | undefined {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return isIP(bare) === 0 ? bare : undefined;
}
