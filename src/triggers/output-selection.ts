// Which block outputs a streaming execute call sends as chunk records (docs/api.md 4.5):
// `selectedOutputs` items are `blockName.attribute` (name case-insensitive, spaces ignored, a block id works too).
import type { BlockProgress } from '../blocks/types.js';
import type { EngineEvent } from '../engine/index.js';
import { AppError } from '../errors.js';
import { buildNameIndex, getPath, normalizeBlockName, type WorkflowState } from '../workflow/index.js';

/** Block id → attribute paths to stream. */
export type OutputSelection = Map<string, string[][]>;

/** Block types whose `content` arrives token by token through chunk events while the block runs. */
const STREAMING_TYPES = new Set(['agent']);

export function parseSelectedOutputs(state: WorkflowState, items: string[]): OutputSelection {
  const index = buildNameIndex(state);
  const selection: OutputSelection = new Map();
  const problems: Array<{ path: string; message: string }> = [];
  items.forEach((item, i) => {
    const dot = item.indexOf('.');
    const blockPart = dot === -1 ? item : item.slice(0, dot);
    const attribute = dot === -1 ? '' : item.slice(dot + 1);
    const blockId = index.get(normalizeBlockName(blockPart)) ?? (state.blocks[blockPart] ? blockPart : undefined);
    if (!blockId) {
      problems.push({ path: `selectedOutputs.${i}`, message: `no block named "${blockPart}"` });
      return;
    }
    if (!attribute) {
      problems.push({ path: `selectedOutputs.${i}`, message: 'must have the form blockName.attribute' });
      return;
    }
    const paths = selection.get(blockId) ?? [];
    paths.push(attribute.split('.'));
    selection.set(blockId, paths);
  });
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', 400, 'Unknown selected outputs', problems);
  return selection;
}

/** Without selectedOutputs: the `content` of agent blocks with no outgoing edges (the answer of the workflow). */
export function defaultSelection(state: WorkflowState): OutputSelection {
  const hasOutgoing = new Set(state.edges.map((e) => e.source));
  const selection: OutputSelection = new Map();
  for (const block of Object.values(state.blocks)) {
    if (STREAMING_TYPES.has(block.type) && !hasOutgoing.has(block.id)) selection.set(block.id, [['content']]);
  }
  return selection;
}

export interface ChunkRecord {
  blockId: string;
  chunk: string;
}

/** With `streamEvents`: an agent's step or tool call, between the chunks (docs/api.md 4.5). */
export type ProgressRecord = { blockId: string } & BlockProgress;

export type StreamRecord = ChunkRecord | ProgressRecord;

/**
 * Turns engine events into chunk records: streamed text as it arrives for selected `content` of streaming blocks,
 * and every other selected attribute as one chunk when its block finishes (JSON text when not a string).
 */
export function createChunkRouter(
  selection: OutputSelection,
  send: (record: StreamRecord) => void,
  options: { events?: boolean } = {},
) {
  const streamedBlocks = new Set<string>();
  return (event: EngineEvent) => {
    if (event.type === 'block_progress') {
      if (options.events) send({ blockId: event.blockId, ...event.progress });
      return;
    }
    if (event.type === 'chunk') {
      const paths = selection.get(event.blockId);
      if (paths?.some((p) => p.length === 1 && p[0] === 'content')) {
        streamedBlocks.add(event.blockId);
        send({ blockId: event.blockId, chunk: event.chunk });
      }
      return;
    }
    if (event.type !== 'block_finished') return;
    const paths = selection.get(event.blockId);
    if (!paths) return;
    const streamed = streamedBlocks.delete(event.blockId);
    for (const path of paths) {
      if (streamed && path.length === 1 && path[0] === 'content') continue;
      const value = getPath(event.output, path);
      if (value === undefined) continue;
      send({ blockId: event.blockId, chunk: typeof value === 'string' ? value : JSON.stringify(value) });
    }
  };
}
