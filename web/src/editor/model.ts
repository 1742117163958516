// Between the saved workflow state (docs/workflows.md 1) and React Flow's nodes and edges. Child positions are relative to their
// container, as React Flow keeps them; a container's size is kept in its block config (width, height).
import { MarkerType, type Edge, type Node } from '@xyflow/react';
import type { Block, BlockPolicy, Loop, Parallel, StateEdge, WorkflowState } from '../types.js';
import { indexBlockNames } from '../../../src/workflow/names.js';
import { isReferenceableName, renameReferences } from '../../../src/workflow/rename.js';
import { CONTAINER_SETTING_KEYS, normalizeName, specOf } from './catalog.js';

/** One branch of a condition block's `conditions` (src/blocks/condition.ts); `else` has no expression to meet. */
export interface Condition {
  id: string;
  title: string;
  expression: string;
}

export interface BlockData extends Record<string, unknown> {
  type: string;
  name: string;
  enabled: boolean;
  config: Record<string, unknown>;
  policy?: BlockPolicy;
  /**
   * The block's pinned output (docs/workflows.md "Pinned data"): manual runs use it instead of running the block. Kept
   * with the node so it goes wherever the block goes (deleted with it, undone with it); saved as `state.pinned`.
   */
  pinned?: Record<string, unknown>;
}

export type FlowNode = Node<BlockData>;

/** `paused`: an approval block the run waits at. */
export type BlockRunStatus = 'running' | 'success' | 'error' | 'skipped' | 'paused';

/** A block's part in a run shown on the canvas (a manual run in progress, or a past run from its log). */
export interface BlockRunState {
  status: BlockRunStatus;
  durationMs?: number;
  output?: unknown;
  error?: string;
  text?: string;
  /** An agent's tool calls as they start and end (a manual run's tool_call / tool_result records). */
  toolCalls?: ToolCallState[];
  /** How many times it finished (loops run a block more than once). */
  runs: number;
}

export interface ToolCallState {
  id: string;
  name: string;
  status: 'running' | 'success' | 'error';
  arguments: unknown;
  result?: unknown;
  error?: string;
}
export type FlowEdge = Edge;

/** The handle inside a container that starts each iteration; saved as an ordinary `source` edge to a child. */
export const CONTAINER_START_HANDLE = 'start';
export const DEFAULT_CONTAINER_SIZE = { width: 420, height: 240 };

export const isContainer = (type: string) => type === 'loop' || type === 'parallel';

export function edgeStyle(sourceHandle: string | null | undefined): Partial<FlowEdge> {
  const color = sourceHandle === 'error' ? '#d93025' : sourceHandle?.startsWith('condition-') ? '#c27c0e' : '#8a94a6';
  return {
    style: { stroke: color, strokeWidth: 2 },
    markerEnd: { type: MarkerType.ArrowClosed, color, width: 16, height: 16 },
  };
}

/** A new connection, styled by the handle it leaves from. */
export function makeEdge(source: string, target: string, sourceHandle: string): FlowEdge {
  return {
    id: `e_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    source,
    target,
    sourceHandle,
    ...edgeStyle(sourceHandle),
  };
}

function depthOf(block: Block, blocks: Record<string, Block>): number {
  let depth = 0;
  let current = block.parentId ? blocks[block.parentId] : undefined;
  while (current && depth < 50) {
    depth++;
    current = current.parentId ? blocks[current.parentId] : undefined;
  }
  return depth;
}

/** Parents must come before their children in React Flow's node array. */
export function sortParentsFirst(nodes: FlowNode[]): FlowNode[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const depth = (node: FlowNode) => {
    let d = 0;
    let parent = node.parentId ? byId.get(node.parentId) : undefined;
    while (parent && d < 50) {
      d++;
      parent = parent.parentId ? byId.get(parent.parentId) : undefined;
    }
    return d;
  };
  return [...nodes].sort((a, b) => depth(a) - depth(b));
}

export function fromState(state: WorkflowState): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const blocks = state.blocks ?? {};
  const ordered = Object.values(blocks).sort((a, b) => depthOf(a, blocks) - depthOf(b, blocks));
  const nodes: FlowNode[] = ordered.map((block) => {
    const container = isContainer(block.type);
    const config = { ...(block.config ?? {}) };
    let style: FlowNode['style'];
    if (container) {
      const settings: Loop | Parallel | undefined = block.type === 'loop' ? state.loops?.[block.id] : state.parallels?.[block.id];
      for (const key of CONTAINER_SETTING_KEYS[block.type]) {
        const value = (settings as unknown as Record<string, unknown> | undefined)?.[key];
        if (value !== undefined) config[key] = typeof value === 'string' || typeof value === 'number' ? value : JSON.stringify(value);
      }
      if (!config[CONTAINER_SETTING_KEYS[block.type][0]]) Object.assign(config, specOf(block.type).defaultConfig());
      style = {
        width: Number(config.width) || DEFAULT_CONTAINER_SIZE.width,
        height: Number(config.height) || DEFAULT_CONTAINER_SIZE.height,
      };
      delete config.width;
      delete config.height;
    }
    return {
      id: block.id,
      type: container ? 'container' : 'block',
      position: { x: block.position?.x ?? 0, y: block.position?.y ?? 0 },
      ...(block.parentId && blocks[block.parentId] ? { parentId: block.parentId } : {}),
      ...(style ? { style, width: Number(style.width), height: Number(style.height) } : {}),
      ...(container ? { zIndex: -1 } : {}),
      data: {
        type: block.type,
        name: block.name,
        enabled: block.enabled !== false,
        config,
        ...(block.policy ? { policy: block.policy } : {}),
        ...(state.pinned?.[block.id] ? { pinned: state.pinned[block.id] } : {}),
      },
    };
  });
  const edges: FlowEdge[] = (state.edges ?? []).map((edge) => {
    const target = blocks[edge.target];
    const startsIteration = target?.parentId === edge.source && isContainer(blocks[edge.source]?.type ?? '');
    const handle = startsIteration ? CONTAINER_START_HANDLE : (edge.sourceHandle ?? 'source');
    return { id: edge.id, source: edge.source, target: edge.target, sourceHandle: handle, ...edgeStyle(handle) };
  });
  return { nodes, edges };
}

const round = (n: number) => Math.round(n * 10) / 10;

function numberOrText(value: unknown): unknown {
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return value;
}

/**
 * A block being renamed letter by letter: `refName` is the name its references are written with now. While the typed
 * name cannot be referenced (empty, `2nd`) or is another block's, the references stay where they are — validation
 * points at them — and they follow as soon as the typed name can take them.
 */
export interface RenameSession {
  id: string;
  refName: string;
  typed: string;
}

export function startRename(nodes: FlowNode[], id: string): RenameSession {
  const name = nodes.find((n) => n.id === id)?.data.name ?? '';
  const owner = indexBlockNames(nodes.map((n) => ({ id: n.id, name: n.data.name, type: n.data.type }))).get(normalizeName(name));
  return { id, refName: owner === id ? name : '', typed: name };
}

/** The nodes with the session's block named `name` and the references that followed it (src/workflow/rename.ts). */
export function renameNode(nodes: FlowNode[], session: RenameSession, name: string): { nodes: FlowNode[]; session: RenameSession } {
  const taken = (candidate: string) => nodes.some((n) => n.id !== session.id && normalizeName(n.data.name) === normalizeName(candidate));
  const renamed = nodes.map((n) => (n.id === session.id ? { ...n, data: { ...n.data, name } } : n));
  const follow = session.refName !== '' && isReferenceableName(name) && !taken(name) && !taken(session.refName);
  if (!follow) return { nodes: renamed, session: { ...session, typed: name } };
  return {
    nodes: renamed.map((n) => {
      const config = renameReferences(n.data.config, session.refName, name);
      return config === n.data.config ? n : { ...n, data: { ...n.data, config } };
    }),
    session: { ...session, refName: name, typed: name },
  };
}

export function toState(nodes: FlowNode[], edges: FlowEdge[]): WorkflowState {
  const state: WorkflowState = { blocks: {}, edges: [], loops: {}, parallels: {} };
  for (const node of nodes) {
    const { type, name, enabled, config, policy, pinned } = node.data;
    const block: Block = {
      id: node.id,
      type,
      name,
      position: { x: round(node.position.x), y: round(node.position.y) },
      enabled,
      config: { ...config },
    };
    if (node.parentId) block.parentId = node.parentId;
    if (policy && Object.keys(policy).length > 0) block.policy = policy;
    if (pinned && !isContainer(type)) state.pinned = { ...state.pinned, [node.id]: pinned };
    if (isContainer(type)) {
      const width = node.width ?? node.measured?.width ?? (Number(node.style?.width) || DEFAULT_CONTAINER_SIZE.width);
      const height = node.height ?? node.measured?.height ?? (Number(node.style?.height) || DEFAULT_CONTAINER_SIZE.height);
      block.config = { width: Math.round(width), height: Math.round(height) };
      const children = nodes.filter((n) => n.parentId === node.id).map((n) => n.id);
      if (type === 'loop') {
        const loop: Loop = { id: node.id, nodes: children, loopType: config.loopType === 'forEach' ? 'forEach' : 'for' };
        if (loop.loopType === 'for') loop.iterations = Number(config.iterations) || 1;
        else if (config.forEachItems !== undefined && config.forEachItems !== '') loop.forEachItems = config.forEachItems as Loop['forEachItems']; // checked by the server on save
        state.loops[node.id] = loop;
      } else {
        const parallel: Parallel = {
          id: node.id,
          nodes: children,
          parallelType: config.parallelType === 'collection' ? 'collection' : 'count',
        };
        if (parallel.parallelType === 'count') parallel.count = Number(config.count) || 1;
        else if (config.distribution !== undefined && config.distribution !== '') parallel.distribution = config.distribution as Parallel['distribution'];
        state.parallels[node.id] = parallel;
      }
    } else {
      for (const key of ['timeoutMs', 'retries', 'ms', 'status', 'temperature', 'maxTokens']) {
        if (key in block.config) {
          if (block.config[key] === '' || block.config[key] === undefined) delete block.config[key];
          else block.config[key] = numberOrText(block.config[key]);
        }
      }
    }
    state.blocks[node.id] = block;
  }
  for (const edge of edges) {
    const saved: StateEdge = { id: edge.id, source: edge.source, target: edge.target };
    const handle = edge.sourceHandle === CONTAINER_START_HANDLE ? 'source' : (edge.sourceHandle ?? 'source');
    saved.sourceHandle = handle;
    state.edges.push(saved);
  }
  return state;
}

/** Output names a block offers to `<name.field>` references. */
export function outputsOf(data: BlockData): readonly string[] {
  const spec = specOf(data.type);
  if (data.type === 'api_trigger') {
    const fields = Array.isArray(data.config.inputFormat) ? (data.config.inputFormat as { name?: string }[]) : [];
    return [...fields.map((f) => f.name ?? '').filter(Boolean), 'input'];
  }
  if (data.type === 'variables') {
    const list = Array.isArray(data.config.assignments) ? (data.config.assignments as { name?: string }[]) : [];
    return list.map((a) => a.name ?? '').filter(Boolean);
  }
  return spec.outputs;
}
