// Starts the HTTP server on an AppContext; used by `sluice serve` and by the tests (port 0 → ephemeral).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './http/app.js';
import { answerMalformedRequests } from './http/client-errors.js';
import { drainable } from './http/drain.js';
import type { AppContext } from './services/app-context.js';

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting, lets requests in flight finish within the configured grace, then closes what is left. */
  close(): Promise<void>;
}

export async function startHttpServer(app: AppContext, options: { port: number; host: string }): Promise<RunningServer> {
  const honoApp = createApp(app);
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: honoApp.fetch, port: options.port, hostname: options.host }, () => resolve(s));
    s.once('error', reject);
  });
  answerMalformedRequests(server as Server);
  const drain = drainable(server as Server);
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () => drain(app.config.httpShutdownGraceMs),
  };
}
