// Turns a workflow state into the structure the scheduler walks. Building is separate from running (Sim's
// executor style) so the run loop never re-derives topology, and one build serves every iteration of a container.
import type { Block, WorkflowState } from '../workflow/index.js';
import { buildNameIndex } from '../workflow/index.js';

/** Edges without a handle leave through the normal `source` handle. */
export const DEFAULT_HANDLE = 'source';
export const ERROR_HANDLE = 'error';

export type NodeKind = 'block' | 'loop' | 'parallel';

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  handle: string;
}

export interface GraphNode {
  id: string;
  block: Block;
  kind: NodeKind;
  /** The loop or parallel this node sits in; null at the top level. */
  containerId: string | null;
  /** Edges within the same level, plus for a container's children the edges coming from the container. */
  incoming: GraphEdge[];
  outgoing: GraphEdge[];
}

/** The nodes run together: the top level, or the body of one container (run once per iteration). */
export interface GraphLevel {
  containerId: string | null;
  nodes: GraphNode[];
  /** Container → child edges: activated when each iteration starts, marking where the body begins. */
  entryEdges: GraphEdge[];
}

export interface WorkflowGraph {
  nodes: Map<string, GraphNode>;
  levels: Map<string | null, GraphLevel>;
  nameIndex: Map<string, string>;
  /** Edges crossing a container boundary other than container → child; they are not followed. */
  ignoredEdges: GraphEdge[];
}

/**
 * Graphs are read-only once built, and a deployed state is one frozen object reused by every run of that deployment:
 * its graph is built once. (A state that is not frozen — a draft, a test's — is built every time: it may change.)
 */
const builtGraphs = new WeakMap<WorkflowState, WorkflowGraph>();

export function buildGraph(state: WorkflowState): WorkflowGraph {
  if (!Object.isFrozen(state)) return buildGraphOf(state);
  let graph = builtGraphs.get(state);
  if (!graph) builtGraphs.set(state, (graph = buildGraphOf(state)));
  return graph;
}

function buildGraphOf(state: WorkflowState): WorkflowGraph {
  const kindOf = (block: Block): NodeKind => {
    if (state.loops[block.id] || block.type === 'loop') return 'loop';
    if (state.parallels[block.id] || block.type === 'parallel') return 'parallel';
    return 'block';
  };
  const containerIds = new Set(
    Object.values(state.blocks)
      .filter((block) => kindOf(block) !== 'block')
      .map((block) => block.id),
  );
  // parentId is authoritative; the containers' `nodes` lists are the fallback for states that only fill those.
  const listedIn = new Map<string, string>();
  for (const settings of [...Object.values(state.loops), ...Object.values(state.parallels)]) {
    for (const child of settings.nodes) if (!listedIn.has(child)) listedIn.set(child, settings.id);
  }
  const containerOf = (block: Block): string | null => {
    if (block.parentId !== undefined && containerIds.has(block.parentId) && block.parentId !== block.id) {
      return block.parentId;
    }
    const listed = listedIn.get(block.id);
    return listed !== undefined && containerIds.has(listed) && listed !== block.id ? listed : null;
  };

  const nodes = new Map<string, GraphNode>();
  const levels = new Map<string | null, GraphLevel>([[null, { containerId: null, nodes: [], entryEdges: [] }]]);
  for (const id of containerIds) levels.set(id, { containerId: id, nodes: [], entryEdges: [] });
  for (const block of Object.values(state.blocks)) {
    const node: GraphNode = {
      id: block.id,
      block,
      kind: kindOf(block),
      containerId: containerOf(block),
      incoming: [],
      outgoing: [],
    };
    nodes.set(block.id, node);
    levels.get(node.containerId)!.nodes.push(node);
  }

  const ignoredEdges: GraphEdge[] = [];
  for (const edge of state.edges) {
    const graphEdge: GraphEdge = {
      id: edge.id,
      source: edge.source,
      target: edge.target,
      handle: edge.sourceHandle || DEFAULT_HANDLE,
    };
    const source = nodes.get(edge.source);
    const target = nodes.get(edge.target);
    if (!source || !target) continue;
    if (source.containerId === target.containerId) {
      source.outgoing.push(graphEdge);
      target.incoming.push(graphEdge);
    } else if (target.containerId === source.id) {
      target.incoming.push(graphEdge);
      levels.get(source.id)!.entryEdges.push(graphEdge);
    } else {
      ignoredEdges.push(graphEdge);
    }
  }

  return { nodes, levels, nameIndex: buildNameIndex(state), ignoredEdges };
}
