// Reads the execute endpoint's SSE response record by record as it arrives, so tests can act between records.
export type SseRecord = { blockId: string; chunk: string } | { event: 'done'; success: boolean; output: any; metadata: any; error?: string } | '[DONE]';

export interface SseReader {
  status: number;
  headers: Headers;
  /** Every record received so far, in order. */
  records: SseRecord[];
  /** Resolves once `count` records have arrived (immediately if they already have). */
  waitForRecords(count: number): Promise<void>;
  /** Resolves with all records once the stream ends. */
  finished: Promise<SseRecord[]>;
  /** Hangs up, as a client that goes away would. */
  abort(): void;
}

export async function openSse(url: string, apiKey: string, body: unknown): Promise<SseReader> {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const records: SseRecord[] = [];
  let waiters: Array<{ count: number; wake: () => void }> = [];
  const notify = () => {
    waiters = waiters.filter((w) => {
      if (records.length >= w.count) w.wake();
      return records.length < w.count;
    });
  };
  const finished = (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const line of event.split('\n')) {
            if (!line.startsWith('data: ')) continue;
            const payload = line.slice(6);
            records.push(payload === '[DONE]' ? '[DONE]' : (JSON.parse(payload) as SseRecord));
          }
          notify();
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    return records;
  })();
  return {
    status: res.status,
    headers: res.headers,
    records,
    waitForRecords: (count) =>
      records.length >= count ? Promise.resolve() : new Promise<void>((wake) => waiters.push({ count, wake })),
    finished,
    abort: () => controller.abort(),
  };
}

export function chunksOf(records: SseRecord[]): Array<{ blockId: string; chunk: string }> {
  return records.filter((r): r is { blockId: string; chunk: string } => typeof r === 'object' && 'chunk' in r);
}

export function doneOf(records: SseRecord[]) {
  const done = records.find((r): r is Extract<SseRecord, { event: 'done' }> => typeof r === 'object' && 'event' in r);
  if (!done) throw new Error(`no final record in ${JSON.stringify(records)}`);
  return done;
}
