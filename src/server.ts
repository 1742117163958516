// Starts the HTTP server on an AppContext; used by `sluice serve` and by the tests (port 0 → ephemeral).
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './http/app.js';
import type { AppContext } from './services/app-context.js';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startHttpServer(app: AppContext, options: { port: number; host: string }): Promise<RunningServer> {
  const honoApp = createApp(app);
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: honoApp.fetch, port: options.port, hostname: options.host }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive sockets would hold close() open; in-flight requests still finish.
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      }),
  };
}
