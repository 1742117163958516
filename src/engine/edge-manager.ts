// Edge settling for one level (as Sim's EdgeManager): which nodes may run, given how the nodes before them ended.
// Every incoming edge of a node is settled exactly once, active or not. A node is ready once all its incoming
// edges are settled and at least one is active; when none is, it is skipped, which settles its own outgoing edges
// as inactive — so a dead branch settles all the way down without running, and a join waits for every branch but
// runs if any one of them reached it. Pure bookkeeping: it runs nothing and knows no signals or spans.
import { DEFAULT_HANDLE, ERROR_HANDLE, type GraphEdge, type GraphLevel, type GraphNode } from './graph.js';

/** How a node that ran ended: with the handle it chose, or with an error. */
export type NodeExit =
  | { kind: 'success'; handle?: string }
  /** `continueOnError`: the error is an outcome, so with no error edge the normal edges are followed. */
  | { kind: 'error'; continueOnError?: boolean; handle?: string };

/** Nodes that became ready to run, in the order they did; and those that settled as skipped on the way. */
export interface Settled {
  ready: GraphNode[];
  skipped: GraphNode[];
}

export type Routing =
  | ({ kind: 'routed' } & Settled)
  /** The node failed and has no error edge to take: nothing was settled; the level fails. */
  | { kind: 'unhandled-error' };

export type NodeState = 'waiting' | 'ready' | 'skipped';

export interface EdgeManager {
  /**
   * Settles the level's entry edges (container → first blocks) as active, and returns what is ready at the start:
   * the nodes those edges made ready, then, in level order, nodes with no incoming edge and the start block.
   */
  begin(): Settled;
  /** Settles the outgoing edges of a node that ran, according to how it ended. */
  route(node: GraphNode, exit: NodeExit): Routing;
  /** A node that will not run (a ready node the caller passes over): its outgoing edges settle as inactive. */
  pass(node: GraphNode): Settled;
  state(nodeId: string): NodeState;
}

export function createEdgeManager(level: GraphLevel, startBlockId: string | null): EdgeManager {
  const nodesById = new Map(level.nodes.map((node) => [node.id, node]));
  const unsettled = new Map(level.nodes.map((node) => [node.id, node.incoming.length]));
  const settledEdges = new Set<string>();
  const reached = new Set<string>();
  const decided = new Map<string, Exclude<NodeState, 'waiting'>>();

  const settleAll = (edges: GraphEdge[], isActive: (edge: GraphEdge) => boolean): Settled => {
    const ready: GraphNode[] = [];
    const skipped: GraphNode[] = [];
    // Depth first, so a node made ready by a cascade of skips comes before the next edge's target.
    const settle = (edge: GraphEdge, active: boolean) => {
      if (settledEdges.has(edge.id)) return;
      settledEdges.add(edge.id);
      if (active) reached.add(edge.target);
      const left = (unsettled.get(edge.target) ?? 0) - 1;
      unsettled.set(edge.target, left);
      const target = nodesById.get(edge.target);
      if (left > 0 || !target || decided.has(target.id)) return;
      if (reached.has(target.id)) {
        decided.set(target.id, 'ready');
        ready.push(target);
      } else {
        decided.set(target.id, 'skipped');
        skipped.push(target);
        for (const next of target.outgoing) settle(next, false);
      }
    };
    for (const edge of edges) settle(edge, isActive(edge));
    return { ready, skipped };
  };

  return {
    begin() {
      const settled = settleAll(level.entryEdges, () => true);
      for (const node of level.nodes) {
        if ((node.incoming.length === 0 || node.id === startBlockId) && !decided.has(node.id)) {
          decided.set(node.id, 'ready');
          settled.ready.push(node);
        }
      }
      return settled;
    },

    route(node, exit) {
      const hasErrorEdge = node.outgoing.some((edge) => edge.handle === ERROR_HANDLE);
      if (exit.kind === 'error' && hasErrorEdge) {
        return { kind: 'routed', ...settleAll(node.outgoing, (edge) => edge.handle === ERROR_HANDLE) };
      }
      if (exit.kind === 'error' && !exit.continueOnError) return { kind: 'unhandled-error' };
      // Success, or an error that is an outcome: the chosen handle's edges, never an error edge.
      const handle = exit.handle ?? DEFAULT_HANDLE;
      return { kind: 'routed', ...settleAll(node.outgoing, (edge) => edge.handle !== ERROR_HANDLE && edge.handle === handle) };
    },

    pass(node) {
      decided.set(node.id, 'skipped');
      return settleAll(node.outgoing, () => false);
    },

    state(nodeId) {
      return decided.get(nodeId) ?? 'waiting';
    },
  };
}
