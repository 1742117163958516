// The edge graph must be a DAG: repetition is expressed only by loop containers, never by an edge back.
import { blockLabel, type Model } from './model.js';
import { joinPath, type Report } from './problems.js';
import { edgeKeepsLevel } from './scope.js';

interface OutEdge {
  target: string;
  index: number;
}

const VISITING = 1;
const DONE = 2;

export function checkCycles(model: Model, report: Report): void {
  const outgoing = new Map<string, OutEdge[]>();
  for (const { index, edge } of model.edges) {
    // Self-edges, edges to unknown blocks and edges across containers are reported by other rules.
    const source = model.blocks.get(edge.source);
    const target = model.blocks.get(edge.target);
    if (!source || !target || edge.source === edge.target || !edgeKeepsLevel(source, target)) continue;
    const list = outgoing.get(edge.source) ?? [];
    list.push({ target: edge.target, index });
    outgoing.set(edge.source, list);
  }

  // Iterative depth-first search, so a long chain of blocks cannot overflow the call stack.
  const state = new Map<string, number>();
  for (const root of model.blocks.keys()) {
    if (state.has(root)) continue;
    const stack: Array<{ id: string; next: number }> = [{ id: root, next: 0 }];
    const stackPosition = new Map<string, number>([[root, 0]]);
    state.set(root, VISITING);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      const edges = outgoing.get(frame.id) ?? [];
      if (frame.next >= edges.length) {
        state.set(frame.id, DONE);
        stackPosition.delete(frame.id);
        stack.pop();
        continue;
      }
      const { target, index } = edges[frame.next];
      frame.next += 1;
      const targetState = state.get(target);
      if (targetState === VISITING) {
        const members = stack.slice(stackPosition.get(target)).map((entry) => entry.id);
        const names = [...members, target].map((id) => blockLabel(model, id)).join(' → ');
        report(joinPath('edges', index), `cycle outside a loop: ${names} (repeat steps with a loop block instead)`);
      } else if (targetState === undefined) {
        state.set(target, VISITING);
        stackPosition.set(target, stack.length);
        stack.push({ id: target, next: 0 });
      }
    }
  }
}
