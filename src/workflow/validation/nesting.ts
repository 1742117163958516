// Container nesting must form a tree, and edges must not cross container boundaries.
import { blockLabel, type Model } from './model.js';
import { joinPath, type Report } from './problems.js';
import { edgeKeepsLevel, nestingCycleFrom } from './scope.js';

export function checkNesting(model: Model, report: Report): void {
  const order = new Map([...model.blocks.keys()].map((id, index) => [id, index]));
  const reported = new Set<string>();
  for (const id of model.blocks.keys()) {
    const cycle = nestingCycleFrom(model, id);
    if (!cycle) continue;
    const key = [...cycle].sort().join('\u0000');
    if (reported.has(key)) continue;
    reported.add(key);
    // Start at the member that comes first in the document, so the message does not depend on where the walk began.
    const first = cycle.reduce((best, member) => ((order.get(member) ?? 0) < (order.get(best) ?? 0) ? member : best));
    const start = cycle.indexOf(first);
    const rotated = [...cycle.slice(start), ...cycle.slice(0, start), first];
    report(
      joinPath('blocks', first, 'parentId'),
      `containers are nested in a cycle: ${rotated.map((member) => blockLabel(model, member)).join(' → ')}`,
    );
  }
}

export function checkEdgeLevels(model: Model, report: Report): void {
  for (const { index, edge } of model.edges) {
    const source = model.blocks.get(edge.source);
    const target = model.blocks.get(edge.target);
    if (!source || !target || edge.source === edge.target) continue;
    if (!edgeKeepsLevel(source, target)) {
      report(
        joinPath('edges', index),
        `edge from "${source.name}" to "${target.name}" crosses a loop or parallel boundary; connect to the container block instead`,
      );
    }
  }
}
