import { describe, expect, it } from 'vitest';
import {
  BlockSchema,
  CONTAINER_TYPES,
  EdgeSchema,
  LoopSchema,
  MAX_ID_LENGTH,
  MAX_NAME_LENGTH,
  ParallelSchema,
  TRIGGER_TYPES,
  WorkflowStateSchema,
  emptyState,
} from '../../src/workflow/index.js';

describe('workflow state schema', () => {
  it('applies the documented defaults', () => {
    const state = WorkflowStateSchema.parse({ blocks: { b1: { id: 'b1', type: 'api', name: 'B' } } });
    expect(state).toEqual({
      blocks: { b1: { id: 'b1', type: 'api', name: 'B', position: { x: 0, y: 0 }, enabled: true, config: {} } },
      edges: [],
      loops: {},
      parallels: {},
    });
  });

  it('does not share default objects between parses', () => {
    const a = BlockSchema.parse({ id: 'a', type: 'api', name: 'A' });
    const b = BlockSchema.parse({ id: 'b', type: 'api', name: 'B' });
    a.config.mutated = true;
    a.position.x = 9;
    expect(b.config).toEqual({});
    expect(b.position).toEqual({ x: 0, y: 0 });
  });

  it('emptyState is a valid state and a fresh object each time', () => {
    const first = emptyState();
    expect(WorkflowStateSchema.parse(first)).toEqual(first);
    first.edges.push({ id: 'e', source: 'a', target: 'b' });
    expect(emptyState().edges).toEqual([]);
  });

  it('bounds id and name lengths', () => {
    const longId = 'x'.repeat(MAX_ID_LENGTH + 1);
    expect(BlockSchema.safeParse({ id: longId, type: 'api', name: 'A' }).success).toBe(false);
    expect(BlockSchema.safeParse({ id: 'x'.repeat(MAX_ID_LENGTH), type: 'api', name: 'A' }).success).toBe(true);
    expect(BlockSchema.safeParse({ id: 'a', type: 'api', name: 'n'.repeat(MAX_NAME_LENGTH + 1) }).success).toBe(false);
    expect(EdgeSchema.safeParse({ id: 'e', source: longId, target: 'b' }).success).toBe(false);
  });

  it('rejects blank names, which could never be referenced', () => {
    expect(BlockSchema.safeParse({ id: 'a', type: 'api', name: '   ' }).success).toBe(false);
    expect(BlockSchema.safeParse({ id: 'a', type: 'api', name: '' }).success).toBe(false);
  });

  it('accepts item sources as reference text, arrays or objects, and positive whole counts only', () => {
    for (const forEachItems of ['<api.items>', '[1,2]', [1, 2], { a: 1 }]) {
      expect(LoopSchema.safeParse({ id: 'l', nodes: [], loopType: 'forEach', forEachItems }).success).toBe(true);
    }
    expect(LoopSchema.safeParse({ id: 'l', nodes: [], loopType: 'forEach', forEachItems: 5 }).success).toBe(false);
    for (const iterations of [0, -1, 1.5, '3']) {
      expect(LoopSchema.safeParse({ id: 'l', nodes: [], loopType: 'for', iterations }).success).toBe(false);
    }
    expect(ParallelSchema.safeParse({ id: 'p', nodes: [], parallelType: 'count', count: 3 }).success).toBe(true);
    expect(ParallelSchema.safeParse({ id: 'p', nodes: [], parallelType: 'batch' }).success).toBe(false);
  });

  it('exposes the trigger and container vocabularies', () => {
    expect(TRIGGER_TYPES).toEqual(['api', 'webhook', 'schedule', 'manual', 'chat', 'queue']);
    expect(CONTAINER_TYPES).toEqual(['loop', 'parallel']);
  });
});
