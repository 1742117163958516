// The load the execute benchmarks put on a server: keep-alive clients POSTing the same small order, each checking the
// answer carries it back (the flow echoes it), for a fixed time.
import { request, type Agent } from 'undici';

export const ORDER_BODY = JSON.stringify({ order: 42, items: ['a', 'b', 'c'], note: 'bench' });

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Keeps `concurrency` requests in flight for `seconds`, spread over `urls` in turn. */
export async function load(
  dispatcher: Agent,
  urls: string[],
  headers: Record<string, string>,
  seconds: number,
  concurrency: number,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const until = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const url = urls[next++ % urls.length];
      const started = performance.now();
      try {
        const res = await request(url, { method: 'POST', headers, body: ORDER_BODY, dispatcher });
        const text = await res.body.text();
        if (res.statusCode !== 200 || !text.includes('"order":42')) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { rps: latencies.length / seconds, p50: pct(50), p99: pct(99), errors };
}
