// A local server that records, per key, when each call to it started and ended: a workflow under flow control
// calls it from an API block, so a test sees which runs of a key overlapped.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Visit {
  key: string;
  tag: string;
  start: number;
  end: number;
}

export interface RecordingServer {
  url: string;
  visits: Visit[];
  /** Most calls of one key in flight at once, per key. */
  peakPerKey(): Map<string, number>;
  /** Most calls in flight at once, over all keys. */
  peak(): number;
  /** Calls of `key` in flight now. */
  inFlight(key: string): number;
  /** Holds calls until `release()` when set; otherwise each is held `holdMs`. */
  hold(): { release(): void };
  close(): Promise<void>;
}

export async function startRecordingServer(holdMs = 150): Promise<RecordingServer> {
  const visits: Visit[] = [];
  const now = new Map<string, number>();
  const peaks = new Map<string, number>();
  let total = 0;
  let peak = 0;
  let gate: Promise<void> | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const key = url.searchParams.get('key') ?? '';
    const tag = url.searchParams.get('tag') ?? '';
    const start = Date.now();
    now.set(key, (now.get(key) ?? 0) + 1);
    peaks.set(key, Math.max(peaks.get(key) ?? 0, now.get(key)!));
    total++;
    peak = Math.max(peak, total);
    const finish = () => {
      now.set(key, now.get(key)! - 1);
      total--;
      visits.push({ key, tag, start, end: Date.now() });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ key, tag }));
    };
    req.resume();
    if (gate) void gate.then(finish);
    else setTimeout(finish, holdMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hit`,
    visits,
    peakPerKey: () => new Map(peaks),
    peak: () => peak,
    inFlight: (key) => now.get(key) ?? 0,
    hold() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return {
        release: () => {
          gate = undefined;
          release();
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** api_trigger (fields `customer`, `tag`) → API block calling the recording server with them; flowControl as given. */
export function flowState(url: string, flowControl: Record<string, unknown> | undefined) {
  return {
    blocks: {
      start: {
        id: 'start',
        type: 'api_trigger',
        name: 'API',
        position: { x: 0, y: 0 },
        enabled: true,
        config: {
          inputFormat: [
            { name: 'customer', type: 'string' },
            { name: 'tag', type: 'string' },
          ],
        },
      },
      call: {
        id: 'call',
        type: 'api',
        name: 'Call',
        position: { x: 200, y: 0 },
        enabled: true,
        config: { url: `${url}?key=<api.customer>&tag=<api.tag>`, method: 'GET', retries: 0, timeoutMs: 60_000 },
      },
    },
    edges: [{ id: 'e1', source: 'start', target: 'call' }],
    loops: {},
    parallels: {},
    ...(flowControl ? { flowControl } : {}),
  };
}

/** True when no two visits of the same key overlap in time. */
export function noOverlapPerKey(visits: Visit[]): boolean {
  const byKey = new Map<string, Visit[]>();
  for (const visit of visits) byKey.set(visit.key, [...(byKey.get(visit.key) ?? []), visit]);
  for (const list of byKey.values()) {
    const sorted = [...list].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) if (sorted[i].start < sorted[i - 1].end) return false;
  }
  return true;
}

/** The most of `starts` (epoch ms) that fall in any window [t, t + periodMs): a throttle allows at most its limit. */
export function mostStartsInWindow(starts: number[], periodMs: number): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j] < sorted[i] + periodMs) j++;
    most = Math.max(most, j - i);
  }
  return most;
}
