// Size limits on what a run produces (docs/guarantees.md "Bounded output"). Everything a block produces — its
// config with references filled in and its output — goes into the log, the answer, the stream and the completion
// webhook, and references share values rather than copy them, so a few bytes of config can stand for gigabytes of
// JSON. Each value is measured (without being serialised) as it is produced, and one that would pass a limit fails
// its block with a message naming the block and the limit, instead of a RangeError, a stalled server or a lost log.
import { formatByteLimit } from '../byte-limit.js';
import { jsonSize, resolveValue, TextTooLongError, type ReferenceResolver, type ScannedValue } from '../workflow/index.js';
import type { EngineLimits } from './types.js';

/** What a block produces that the run's log and answer carry. A sub-workflow's trace is nested in its block's span. */
export type ProducedValue = 'configuration' | 'output' | 'sub-workflow trace';

const SUBJECT: Record<ProducedValue, string> = {
  configuration: 'its configuration with references filled in',
  output: 'its output',
  'sub-workflow trace': "its sub-workflow's trace",
};

export interface OutputBudget {
  /**
   * resolveValue, with every text references fill in held to the block limit (such a text is part of a config):
   * one that would grow past it fails the block before it is built. `scanned`: the value's references, found once.
   */
  resolve(blockName: string, value: unknown, resolver: ReferenceResolver, scanned?: ScannedValue): unknown;
  /**
   * Counts `value` against the run's total; throws an Error naming the block and the limit when it is over what is
   * left of the run's, or over the block limit (a sub-workflow's trace has only the run's: its own run held each of
   * its blocks to the block limit). Counts nothing when it throws.
   */
  admit(blockName: string, what: ProducedValue, value: unknown): void;
  /** admit() of a value whose size is known already (a config without references, measured once per deployment). */
  admitSize(blockName: string, what: ProducedValue, size: number): void;
  /** Counts a value produced by an earlier run of this execution (replayed after a pause) without judging it. */
  count(value: unknown): void;
}

export function createOutputBudget(limits: Pick<EngineLimits, 'maxBlockOutputBytes' | 'maxRunOutputBytes'>): OutputBudget {
  const { maxBlockOutputBytes: blockLimit, maxRunOutputBytes: runLimit } = limits;
  let used = 0;
  const overBlockLimit = (blockName: string, subject: string) =>
    new Error(`Block "${blockName}": ${subject} is larger than ${formatByteLimit(blockLimit)}, the limit on one block's output`);
  const admitSize = (blockName: string, what: ProducedValue, size: number) => {
    const left = runLimit - used;
    const ownLimit = what === 'sub-workflow trace' ? Infinity : blockLimit;
    if (size > ownLimit) throw overBlockLimit(blockName, SUBJECT[what]);
    if (size > left) {
      throw new Error(
        `Block "${blockName}": ${SUBJECT[what]} would take what the run has produced past ${formatByteLimit(runLimit)}, ` +
          "the limit on one run's output",
      );
    }
    used += size;
  };
  return {
    resolve(blockName, value, resolver, scanned) {
      try {
        return resolveValue(value, resolver, blockLimit, scanned);
      } catch (error) {
        if (!(error instanceof TextTooLongError)) throw error;
        throw overBlockLimit(blockName, `a text in ${SUBJECT.configuration}`);
      }
    },
    admit(blockName, what, value) {
      const ownLimit = what === 'sub-workflow trace' ? Infinity : blockLimit;
      admitSize(blockName, what, jsonSize(value, Math.min(ownLimit, runLimit - used)));
    },
    admitSize,
    count(value) {
      used += jsonSize(value, runLimit);
    },
  };
}
