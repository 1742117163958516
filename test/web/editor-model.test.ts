// The editor's model (web/src/editor/model.ts): a workflow saved by the editor and opened again is the same workflow
// — blocks, connections (with their handles), containers and their children, container settings and sizes, block
// policies — and what the editor writes is what the server keeps.
import { describe, expect, it } from 'vitest';
import { blockCatalog } from '../../src/blocks/registry.js';
import { validateState } from '../../src/workflow/index.js';
import type { WorkflowState } from '../../src/workflow/index.js';
import { CONTAINER_START_HANDLE, fromState, renameNode, sortParentsFirst, startRename, toState, type FlowNode } from '../../web/src/editor/model.js';

/** Open in the editor, then save: what the server receives. */
const reopen = (state: WorkflowState) => {
  const flow = fromState(state);
  return toState(flow.nodes, flow.edges);
};

/** `api_trigger → fetch → check ⟨ok → loop{ step } → done | else → failed ⟩`, the fetch's errors to `failed`. */
function sampleState(): WorkflowState {
  return {
    blocks: {
      start: { id: 'start', type: 'api_trigger', name: 'Start', position: { x: 0, y: 0 }, enabled: true, config: { inputFormat: [{ name: 'id', type: 'string' }] } },
      fetch: {
        id: 'fetch',
        type: 'api',
        name: 'Fetch',
        position: { x: 240.5, y: 10 },
        enabled: true,
        config: { url: 'https://example.com/items/<start.id>', method: 'GET', queryParams: [], headers: [], timeoutMs: 5000 },
        policy: { retry: { maxAttempts: 3, backoffMs: 500, on: ['error'] }, timeoutMs: 10_000, onError: 'continue' },
      },
      check: {
        id: 'check',
        type: 'condition',
        name: 'Check',
        position: { x: 480, y: 0 },
        enabled: true,
        config: { conditions: [{ id: 'ok', title: 'if', expression: '<fetch.status> === 200' }, { id: 'no', title: 'else', expression: '' }] },
      },
      each: { id: 'each', type: 'loop', name: 'Each', position: { x: 720, y: -40 }, enabled: true, config: { width: 500, height: 300 } },
      step: { id: 'step', type: 'function', name: 'Step', position: { x: 40, y: 80 }, enabled: false, parentId: 'each', config: { code: 'return <loop.index>;' } },
      done: { id: 'done', type: 'response', name: 'Done', position: { x: 1300, y: 0 }, enabled: true, config: { status: 200, headers: [], body: { ok: true } } },
      failed: { id: 'failed', type: 'response', name: 'Failed', position: { x: 720, y: 400 }, enabled: true, config: { status: 502, headers: [], body: { ok: false } } },
    },
    edges: [
      { id: 'e1', source: 'start', target: 'fetch', sourceHandle: 'source' },
      { id: 'e2', source: 'fetch', target: 'check', sourceHandle: 'source' },
      { id: 'e3', source: 'fetch', target: 'failed', sourceHandle: 'error' },
      { id: 'e4', source: 'check', target: 'each', sourceHandle: 'condition-ok' },
      { id: 'e5', source: 'check', target: 'failed', sourceHandle: 'condition-no' },
      { id: 'e6', source: 'each', target: 'step', sourceHandle: 'source' },
      { id: 'e7', source: 'each', target: 'done', sourceHandle: 'source' },
    ],
    loops: { each: { id: 'each', nodes: ['step'], loopType: 'forEach', forEachItems: '<fetch.data>' } },
    parallels: {},
  };
}

describe('editor model: saved and reopened', () => {
  it('the sample is a workflow the server accepts as it is', () => {
    expect(validateState(sampleState(), blockCatalog)).toMatchObject({ ok: true });
  });

  it('a workflow opened and saved without edits is the same workflow', () => {
    const state = sampleState();
    expect(reopen(state)).toEqual(state);
    // And again: nothing drifts on every save.
    expect(reopen(reopen(state))).toEqual(state);
  });

  it('shows each block once, with its name, enabled flag, config and policy', () => {
    const { nodes } = fromState(sampleState());
    expect(nodes.map((n) => n.data.name).sort()).toEqual(['Check', 'Done', 'Each', 'Failed', 'Fetch', 'Start', 'Step']);
    const fetch = nodes.find((n) => n.id === 'fetch')!;
    expect(fetch.data.policy).toEqual({ retry: { maxAttempts: 3, backoffMs: 500, on: ['error'] }, timeoutMs: 10_000, onError: 'continue' });
    expect(fetch.data.config.url).toBe('https://example.com/items/<start.id>');
    expect(nodes.find((n) => n.id === 'step')!.data.enabled).toBe(false);
  });

  it('keeps each connection with its branch: error, condition, and the loop start', () => {
    const { edges } = fromState(sampleState());
    const handleOf = (id: string) => edges.find((e) => e.id === id)?.sourceHandle;
    expect(handleOf('e3')).toBe('error');
    expect(handleOf('e4')).toBe('condition-ok');
    // The loop's edge to its own child starts each iteration; its edge to a block after it does not.
    expect(handleOf('e6')).toBe(CONTAINER_START_HANDLE);
    expect(handleOf('e7')).toBe('source');
    // Connections without a handle in an older save are ordinary ones.
    const old = sampleState();
    delete old.edges[0].sourceHandle;
    expect(fromState(old).edges[0].sourceHandle).toBe('source');
  });

  it('puts children inside their container, after it, and keeps their relative position', () => {
    const state = sampleState();
    // The child listed first in the saved state still comes after its container.
    state.blocks = { step: state.blocks.step, ...state.blocks };
    const { nodes } = fromState(state);
    const step = nodes.find((n) => n.id === 'step')!;
    expect(step.parentId).toBe('each');
    expect(step.position).toEqual({ x: 40, y: 80 });
    expect(nodes.findIndex((n) => n.id === 'each')).toBeLessThan(nodes.findIndex((n) => n.id === 'step'));
    const each = nodes.find((n) => n.id === 'each')!;
    expect(each.type).toBe('container');
    expect({ width: each.width, height: each.height }).toEqual({ width: 500, height: 300 });
    expect(each.data.config).toMatchObject({ loopType: 'forEach', forEachItems: '<fetch.data>' });
  });

  it('saves a block dropped into a container as one of its children, and a resized container with its size', () => {
    const { nodes, edges } = fromState(sampleState());
    const moved: FlowNode[] = sortParentsFirst(
      nodes.map((n) => {
        if (n.id === 'done') return { ...n, parentId: 'each', position: { x: 200, y: 80 } };
        if (n.id === 'each') return { ...n, width: 640, height: 360 };
        return n;
      }),
    );
    const saved = toState(moved, edges);
    expect(saved.blocks.done.parentId).toBe('each');
    expect(saved.loops.each.nodes.sort()).toEqual(['done', 'step']);
    expect(saved.blocks.each.config).toEqual({ width: 640, height: 360 });
    expect(reopen(saved)).toEqual(saved);
  });

  it('keeps loop and parallel settings of every kind', () => {
    const state: WorkflowState = {
      blocks: {
        times: { id: 'times', type: 'loop', name: 'Times', position: { x: 0, y: 0 }, enabled: true, config: { width: 420, height: 240 } },
        fan: { id: 'fan', type: 'parallel', name: 'Fan', position: { x: 0, y: 300 }, enabled: true, config: { width: 420, height: 240 } },
        spread: { id: 'spread', type: 'parallel', name: 'Spread', position: { x: 0, y: 600 }, enabled: true, config: { width: 420, height: 240 } },
      },
      edges: [],
      loops: { times: { id: 'times', nodes: [], loopType: 'for', iterations: 7 } },
      parallels: {
        fan: { id: 'fan', nodes: [], parallelType: 'count', count: 4 },
        spread: { id: 'spread', nodes: [], parallelType: 'collection', distribution: '["a","b"]' },
      },
    };
    expect(reopen(state)).toEqual(state);
  });

  it('gives a container saved without settings the defaults of a new one, which the server accepts', () => {
    const state: WorkflowState = {
      blocks: { l: { id: 'l', type: 'loop', name: 'Loop 1', position: { x: 0, y: 0 }, enabled: true, config: {} } },
      edges: [],
      loops: {},
      parallels: {},
    };
    const saved = reopen(state);
    expect(saved.loops.l).toEqual({ id: 'l', nodes: [], loopType: 'for', iterations: 3 });
    expect(saved.blocks.l.config).toEqual({ width: 420, height: 240 });
    expect(validateState(saved, blockCatalog)).toMatchObject({ ok: true });
  });

  it('saves number fields typed as text as numbers, drops empty ones, and drops an empty policy', () => {
    const { nodes, edges } = fromState(sampleState());
    const edited = nodes.map((n) =>
      n.id === 'fetch' ? { ...n, data: { ...n.data, policy: {}, config: { ...n.data.config, timeoutMs: '2500', retries: '' } } } : n,
    );
    const saved = toState(edited, edges);
    expect(saved.blocks.fetch.config.timeoutMs).toBe(2500);
    expect('retries' in saved.blocks.fetch.config).toBe(false);
    expect('policy' in saved.blocks.fetch).toBe(false);
  });

  it('drops a parent that names no block rather than losing the block', () => {
    const state = sampleState();
    state.blocks.step.parentId = 'gone';
    const step = fromState(state).nodes.find((n) => n.id === 'step')!;
    expect(step.parentId).toBeUndefined();
    expect(step.data.name).toBe('Step');
  });
});

describe('renaming a block in the editor', () => {
  /** Types `text` into the name field letter by letter, after clearing it, as a user does. */
  function typeName(nodes: FlowNode[], id: string, text: string): FlowNode[] {
    let session = startRename(nodes, id);
    let current = nodes;
    for (const typed of ['', ...[...text].map((_, i) => text.slice(0, i + 1))]) {
      ({ nodes: current, session } = renameNode(current, session, typed));
    }
    return current;
  }

  it('takes every reference along, through the empty and unreferenceable names typed on the way', () => {
    const flow = fromState(sampleState());
    const renamed = typeName(flow.nodes, 'fetch', 'Load Item');
    const state = toState(renamed, flow.edges);
    expect(state.blocks.fetch.name).toBe('Load Item');
    expect(state.blocks.check.config.conditions).toEqual([
      { id: 'ok', title: 'if', expression: '<loaditem.status> === 200' },
      { id: 'no', title: 'else', expression: '' },
    ]);
    expect(state.loops.each.forEachItems).toBe('<loaditem.data>');
    expect(validateState(state, blockCatalog)).toMatchObject({ ok: true });
    expect(JSON.stringify(state)).not.toContain('<fetch.');
  });

  it('never hands the references to another block whose name is typed on the way', () => {
    const flow = fromState(sampleState());
    // Typing "Checks" passes through "Check", the condition block's name.
    const renamed = toState(typeName(flow.nodes, 'fetch', 'Checks'), flow.edges);
    expect(renamed.loops.each.forEachItems).toBe('<checks.data>');
    expect(JSON.stringify(renamed.blocks.check.config)).toContain('<checks.status>');
    expect(validateState(renamed, blockCatalog)).toMatchObject({ ok: true });
  });
});
