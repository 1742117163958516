// Rules about edges: endpoints, ids and source handles.
import { blockExists, blockLabel, type EdgeEntry, type Model } from './model.js';
import { joinPath, type Report } from './problems.js';

const CONDITION_HANDLE_PREFIX = 'condition-';

export function checkEdges(model: Model, report: Report): void {
  const firstIndexById = new Map<string, number>();
  for (const entry of model.edges) {
    const { index, edge } = entry;
    const firstIndex = firstIndexById.get(edge.id);
    if (firstIndex === undefined) firstIndexById.set(edge.id, index);
    else report(joinPath('edges', index, 'id'), `duplicate edge id "${edge.id}" (also used by edges.${firstIndex})`);

    for (const end of ['source', 'target'] as const) {
      if (!blockExists(model, edge[end])) {
        report(joinPath('edges', index, end), `dangling edge: ${end} "${edge[end]}" names no block`);
      }
    }
    if (edge.source === edge.target) {
      report(joinPath('edges', index), `edge connects block "${blockLabel(model, edge.source)}" to itself`);
    }
    checkSourceHandle(model, entry, report);
  }
}

function checkSourceHandle(model: Model, { index, edge }: EdgeEntry, report: Report) {
  const handle = edge.sourceHandle;
  if (handle === undefined || handle === 'source' || handle === 'error') return;
  const path = joinPath('edges', index, 'sourceHandle');
  if (!handle.startsWith(CONDITION_HANDLE_PREFIX)) {
    report(path, `unknown sourceHandle "${handle}" (expected "source", "error" or "condition-<id>")`);
    return;
  }
  const source = model.blocks.get(edge.source);
  // A missing or malformed source is reported elsewhere; its conditions cannot be known.
  if (!source) return;
  if (source.type !== 'condition') {
    report(path, `handle "${handle}" is only valid on a condition block, and "${source.name}" is a ${source.type} block`);
    return;
  }
  const conditionId = handle.slice(CONDITION_HANDLE_PREFIX.length);
  if (!conditionIds(source.config).has(conditionId)) {
    report(path, `condition "${conditionId}" does not exist on block "${source.name}"`);
  }
}

/** Read defensively: the condition block's own schema reports a malformed conditions list. */
function conditionIds(config: Record<string, unknown>): Set<string> {
  const ids = new Set<string>();
  const conditions = config.conditions;
  if (!Array.isArray(conditions)) return ids;
  for (const condition of conditions) {
    if (typeof condition === 'object' && condition !== null && 'id' in condition && typeof condition.id === 'string') {
      ids.add(condition.id);
    }
  }
  return ids;
}
