// Captured console output of one run. Bounded because a `for (;;) console.log(x)` loop would otherwise grow the
// host's memory (outside the sandbox's own limit) until the deadline.
import { formatBytes } from './limits.js';

export interface StdoutCapture {
  /** Appends one console line; ignored once the byte budget is spent. */
  writeLine(line: string): void;
  text(): string;
}

export function createStdoutCapture(maxBytes: number): StdoutCapture {
  const chunks: string[] = [];
  let usedBytes = 0;
  let truncated = false;
  return {
    writeLine(line) {
      if (truncated) return;
      const entry = `${line}\n`;
      const entryBytes = Buffer.byteLength(entry);
      if (usedBytes + entryBytes <= maxBytes) {
        chunks.push(entry);
        usedBytes += entryBytes;
        return;
      }
      // Keep what fits, cut on a byte boundary; a split multi-byte character decodes to U+FFFD, which is dropped.
      const head = Buffer.from(entry).subarray(0, maxBytes - usedBytes).toString('utf8').replace(/\uFFFD+$/, '');
      chunks.push(head, `${head.endsWith('\n') || head === '' ? '' : '\n'}[stdout truncated: output exceeded ${formatBytes(maxBytes)}]\n`);
      truncated = true;
    },
    text: () => chunks.join(''),
  };
}
