// Where blocks go on the canvas: a block added from the palette lands beside the one it follows (never on top of
// another), and "Arrange" lays the whole graph out left to right along its connections with dagre — each container's
// children inside it, the top level around them. Pure functions of the nodes and edges, so they are tested directly.
import dagre from '@dagrejs/dagre';
import type { XYPosition } from '@xyflow/react';
import { specOf } from './catalog.js';
import { DEFAULT_CONTAINER_SIZE, isContainer, type FlowEdge, type FlowNode } from './model.js';

/** Size of a block not measured yet (a node React Flow has not drawn). */
const DEFAULT_BLOCK_SIZE = { width: 200, height: 80 };
const GAP_X = 80;
const GAP_Y = 40;
/** Where a container's children start inside it: below its header, off its left edge. */
const CONTAINER_PADDING = { left: 40, top: 60, right: 40, bottom: 40 };

export function sizeOf(node: FlowNode): { width: number; height: number } {
  const fallback = isContainer(node.data.type) ? DEFAULT_CONTAINER_SIZE : DEFAULT_BLOCK_SIZE;
  return {
    width: node.measured?.width ?? node.width ?? (Number(node.style?.width) || fallback.width),
    height: node.measured?.height ?? node.height ?? (Number(node.style?.height) || fallback.height),
  };
}

function overlaps(a: XYPosition & { width: number; height: number }, b: XYPosition & { width: number; height: number }) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * The position (in the anchor's parent's coordinates) of a block of `size` placed to the right of `anchor`: on its
 * row, or the first free row below when a sibling is in the way.
 */
export function placeBeside(anchor: FlowNode, nodes: FlowNode[], size = DEFAULT_BLOCK_SIZE): XYPosition {
  const { width } = sizeOf(anchor);
  const siblings = nodes.filter((n) => n.parentId === anchor.parentId && n.id !== anchor.id);
  const spot = { x: anchor.position.x + width + GAP_X, y: anchor.position.y, ...size };
  for (let guard = 0; guard < 200; guard++) {
    const blocker = siblings.find((n) => overlaps(spot, { ...n.position, ...sizeOf(n) }));
    if (!blocker) break;
    spot.y = blocker.position.y + sizeOf(blocker).height + GAP_Y;
  }
  return { x: spot.x, y: spot.y };
}

/**
 * The handle a block added after `anchor` is connected from: its normal output, a condition's first branch that has
 * no connection yet, or none (a response ends the run; every branch of the condition is taken).
 */
export function followHandle(anchor: FlowNode, edges: FlowEdge[]): string | undefined {
  if (specOf(anchor.data.type).terminal) return undefined;
  const conditions = anchor.data.config.conditions;
  if (anchor.data.type !== 'condition' || !Array.isArray(conditions)) return 'source';
  const used = new Set(edges.filter((e) => e.source === anchor.id).map((e) => e.sourceHandle));
  const free = (conditions as Array<{ id: string }>).find((c) => !used.has(`condition-${c.id}`));
  return free ? `condition-${free.id}` : undefined;
}

/** Lays out one level (the top level, or one container's children) left to right; returns top-left positions. */
function layoutLevel(level: FlowNode[], edges: FlowEdge[], sizes: Map<string, { width: number; height: number }>): Map<string, XYPosition> {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'LR', nodesep: GAP_Y, ranksep: GAP_X, marginx: 0, marginy: 0 });
  graph.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(level.map((n) => n.id));
  for (const node of level) graph.setNode(node.id, { ...sizes.get(node.id)! });
  for (const edge of edges) if (ids.has(edge.source) && ids.has(edge.target)) graph.setEdge(edge.source, edge.target);
  dagre.layout(graph);
  const positions = new Map<string, XYPosition>();
  for (const node of level) {
    const { x, y } = graph.node(node.id);
    const { width, height } = sizes.get(node.id)!;
    positions.set(node.id, { x: Math.round(x - width / 2), y: Math.round(y - height / 2) });
  }
  return positions;
}

/** Every block laid out left to right along its connections; containers grow to hold their arranged children. */
export function arrange(nodes: FlowNode[], edges: FlowEdge[]): FlowNode[] {
  const sizes = new Map(nodes.map((n) => [n.id, sizeOf(n)]));
  const byParent = new Map<string | undefined, FlowNode[]>();
  for (const node of nodes) byParent.set(node.parentId, [...(byParent.get(node.parentId) ?? []), node]);
  const positions = new Map<string, XYPosition>();
  // Innermost containers first, so a container's size is known when its own level is laid out.
  const depth = (node: FlowNode): number => (node.parentId ? 1 + depth(nodes.find((n) => n.id === node.parentId) ?? node) : 0);
  const containers = nodes.filter((n) => isContainer(n.data.type) && byParent.has(n.id)).sort((a, b) => depth(b) - depth(a));
  for (const container of containers) {
    const children = byParent.get(container.id)!;
    const placed = layoutLevel(children, edges, sizes);
    let right = 0;
    let bottom = 0;
    for (const child of children) {
      const at = placed.get(child.id)!;
      const position = { x: at.x + CONTAINER_PADDING.left, y: at.y + CONTAINER_PADDING.top };
      positions.set(child.id, position);
      right = Math.max(right, position.x + sizes.get(child.id)!.width);
      bottom = Math.max(bottom, position.y + sizes.get(child.id)!.height);
    }
    const own = sizes.get(container.id)!;
    sizes.set(container.id, { width: Math.max(own.width, right + CONTAINER_PADDING.right), height: Math.max(own.height, bottom + CONTAINER_PADDING.bottom) });
  }
  for (const [id, position] of layoutLevel(byParent.get(undefined) ?? [], edges, sizes)) positions.set(id, position);
  return nodes.map((node) => {
    const position = positions.get(node.id) ?? node.position;
    if (!isContainer(node.data.type)) return { ...node, position };
    const { width, height } = sizes.get(node.id)!;
    return { ...node, position, width, height, style: { ...node.style, width, height } };
  });
}
