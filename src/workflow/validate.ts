// validateState: the check run when a workflow is saved and when it is deployed (docs/workflows.md 2). It reports every
// problem it finds in one pass, so the editor can show them all at once.
import { isPlainObject } from './plain.js';
import { MAX_BLOCKS, MAX_EDGES } from './limits.js';
import { CONTAINER_TYPES, WorkflowStateSchema, type WorkflowState } from './state.js';
import { checkBlocks } from './validation/blocks.js';
import { checkContainers } from './validation/containers.js';
import { checkCycles } from './validation/cycles.js';
import { checkEdges } from './validation/edges.js';
import { modelFromState, salvageModel, type BlockCatalog } from './validation/model.js';
import { checkEdgeLevels, checkNesting } from './validation/nesting.js';
import { createProblemList, reportZodIssues, type Problem, type Report } from './validation/problems.js';
import { checkReferences } from './validation/references.js';

export type { Problem } from './validation/problems.js';
export type { BlockCatalog, BlockCatalogEntry } from './validation/model.js';

export type ValidationResult = { ok: true; state: WorkflowState } | { ok: false; problems: Problem[] };

export function validateState(input: unknown, catalog: BlockCatalog): ValidationResult {
  const list = createProblemList();
  // An oversized document is refused before anything walks it, so its size cannot be turned into work.
  if (reportOversize(input, list.report)) return { ok: false, problems: list.problems() };

  const parsed = WorkflowStateSchema.safeParse(input);
  if (!parsed.success) reportZodIssues(list.report, parsed.error.issues, '');
  const model = parsed.success ? modelFromState(parsed.data) : isPlainObject(input) ? salvageModel(input) : undefined;
  if (model) {
    checkBlocks(model, catalog, list.report);
    checkEdges(model, list.report);
    checkContainers(model, list.report);
    checkNesting(model, list.report);
    checkEdgeLevels(model, list.report);
    checkCycles(model, list.report);
    checkReferences(model, list.report, catalog);
  }
  if (parsed.success) checkPins(parsed.data, list.report);
  const problems = list.problems();
  if (parsed.success && problems.length === 0) return { ok: true, state: parsed.data };
  return { ok: false, problems };
}

/** A pin belongs to an ordinary block of this state (a container has no output of its own to stand in for). */
function checkPins(state: WorkflowState, report: Report): void {
  for (const blockId of Object.keys(state.pinned ?? {})) {
    const block = state.blocks[blockId];
    if (!block) report(`pinned.${blockId}`, `pins the output of block "${blockId}", which does not exist; unpin it or add the block`);
    else if ((CONTAINER_TYPES as readonly string[]).includes(block.type)) report(`pinned.${blockId}`, `"${block.name}" is a ${block.type}, which has no output of its own to pin`);
  }
}

function reportOversize(input: unknown, report: Report): boolean {
  if (!isPlainObject(input)) return false;
  let oversize = false;
  const limit = (key: string, count: number, max: number, what: string) => {
    if (count <= max) return;
    report(key, `must hold at most ${max} ${what} (found ${count})`);
    oversize = true;
  };
  const countKeys = (value: unknown) => (isPlainObject(value) ? Object.keys(value).length : 0);
  limit('blocks', countKeys(input.blocks), MAX_BLOCKS, 'blocks');
  limit('edges', Array.isArray(input.edges) ? input.edges.length : 0, MAX_EDGES, 'edges');
  limit('loops', countKeys(input.loops), MAX_BLOCKS, 'loops');
  limit('parallels', countKeys(input.parallels), MAX_BLOCKS, 'parallels');
  return oversize;
}
