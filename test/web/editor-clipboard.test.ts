// Copy and paste of blocks (web/src/editor/clipboard.ts): the copy is JSON text; a paste gets new ids and free names,
// the references between the pasted blocks follow their new names, and the result is a valid workflow.
import { describe, expect, it } from 'vitest';
import { blockCatalog } from '../../src/blocks/registry.js';
import { validateState, type WorkflowState } from '../../src/workflow/index.js';
import { copySelection, parseClipboard, pasteNodes } from '../../web/src/editor/clipboard.js';
import { fromState, toState, type FlowNode } from '../../web/src/editor/model.js';

function workflow(): WorkflowState {
  const block = (id: string, type: string, name: string, config: Record<string, unknown>, extra = {}) => ({
    id,
    type,
    name,
    position: { x: 100, y: 100 },
    enabled: true,
    config,
    ...extra,
  });
  return {
    blocks: {
      start: block('start', 'api_trigger', 'Start', { inputFormat: [{ name: 'id', type: 'string' }] }),
      fetch: block('fetch', 'api', 'Fetch', { url: 'https://example.com/<start.id>', method: 'GET' }),
      check: block('check', 'condition', 'Check', {
        conditions: [{ id: 'ok', title: 'if', expression: '<fetch.status> === 200' }, { id: 'no', title: 'else', expression: '' }],
      }),
      each: block('each', 'loop', 'Each', {}),
      step: block('step', 'function', 'Step', { code: 'return <loop.currentItem>;' }, { parentId: 'each' }),
    },
    edges: [
      { id: 'e1', source: 'start', target: 'fetch' },
      { id: 'e2', source: 'fetch', target: 'check' },
      { id: 'e3', source: 'check', target: 'each', sourceHandle: 'condition-ok' },
      { id: 'e4', source: 'each', target: 'step' },
    ],
    loops: { each: { id: 'each', nodes: ['step'], loopType: 'forEach', forEachItems: '<fetch.data>' } },
    parallels: {},
  };
}

const select = (nodes: FlowNode[], ids: string[]) => nodes.map((n) => ({ ...n, selected: ids.includes(n.id) }));

describe('copy and paste', () => {
  it('pastes into the same workflow as new blocks with free names, references following, still valid', () => {
    const { nodes, edges } = fromState(workflow());
    const copied = copySelection(select(nodes, ['fetch', 'check', 'each']), edges)!;
    // A selected container brings its children; only the connections among the copied blocks come along.
    expect(Object.keys(copied.state.blocks).sort()).toEqual(['check', 'each', 'fetch', 'step']);
    expect(copied.state.edges.map((e) => e.id).sort()).toEqual(['e2', 'e3', 'e4']);

    const text = JSON.stringify(copied);
    const pasted = pasteNodes(parseClipboard(text)!, nodes);
    const names = pasted.nodes.map((n) => n.data.name).sort();
    expect(names).toEqual(['Check 1', 'Each 1', 'Fetch 1', 'Step 1']);
    expect(pasted.nodes.every((n) => n.selected && !nodes.some((o) => o.id === n.id))).toBe(true);
    const merged = toState([...nodes, ...pasted.nodes], [...edges, ...pasted.edges]);
    expect(validateState(merged, blockCatalog)).toMatchObject({ ok: true });
    const copyOf = (name: string) => Object.values(merged.blocks).find((b) => b.name === name)!;
    // The pasted condition and loop read the pasted Fetch; the original still reads the original.
    expect(JSON.stringify(copyOf('Check 1').config)).toContain('<fetch1.status>');
    expect(merged.loops[copyOf('Each 1').id].forEachItems).toBe('<fetch1.data>');
    expect(merged.loops[copyOf('Each 1').id].nodes).toEqual([copyOf('Step 1').id]);
    expect(copyOf('Step 1').parentId).toBe(copyOf('Each 1').id);
    expect(JSON.stringify(merged.blocks.check.config)).toContain('<fetch.status>');
    // A reference to a block that was not copied still reaches it.
    expect(copyOf('Fetch 1').config.url).toBe('https://example.com/<start.id>');
  });

  it('keeps names that are free in the other workflow, and leaves out a second API trigger', () => {
    const { nodes, edges } = fromState(workflow());
    const text = JSON.stringify(copySelection(select(nodes, ['start', 'fetch']), edges));
    const other = fromState({ blocks: {}, edges: [], loops: {}, parallels: {} }).nodes;
    const intoEmpty = pasteNodes(parseClipboard(text)!, other);
    expect(intoEmpty.nodes.map((n) => n.data.name).sort()).toEqual(['Fetch', 'Start']);
    expect(intoEmpty.edges).toHaveLength(1);
    const intoSame = pasteNodes(parseClipboard(text)!, nodes);
    expect(intoSame.nodes.map((n) => n.data.type)).toEqual(['api']);
    expect(intoSame.edges).toEqual([]);
  });

  it('reads only copied blocks back from the clipboard', () => {
    for (const text of ['', 'hello', '{"format":"other","state":{"blocks":{},"edges":[]}}', '{"format":"sluice/blocks@1"}', '[]']) {
      expect(parseClipboard(text), text).toBeNull();
    }
    expect(copySelection(fromState(workflow()).nodes, [])).toBeNull();
  });
});
