// Pinned data (docs/workflows.md "Pinned data"): a draft run uses a pinned block's output instead of running the block
// — no outbound call, no model call, no cost — through the engine's replay hook, as a re-run replays recorded blocks.
// A deployed run never does: pins are an editing aid of the draft (deployments do not even hold them).
import type { ReplayedBlock, RunWorkflowOptions } from '../engine/index.js';
import type { WorkflowState } from '../workflow/index.js';

type Replay = NonNullable<RunWorkflowOptions['replay']>;

/** The replay of a run: what it already recorded (a resume, a re-run) first, then, in a draft run, the pins. */
export function withPins(replay: Replay | undefined, state: WorkflowState, deploymentVersion: number | null): Replay | undefined {
  const pinned = deploymentVersion === null ? state.pinned : undefined;
  if (!pinned || Object.keys(pinned).length === 0) return replay;
  return (blockId, path) => {
    const recorded = replay?.(blockId, path);
    if (recorded) return recorded;
    const output = Object.hasOwn(pinned, blockId) ? pinned[blockId] : undefined;
    if (!output) return undefined;
    const now = new Date().toISOString();
    const pin: ReplayedBlock = { output: output as ReplayedBlock['output'], startedAt: now, endedAt: now };
    return pin;
  };
}
