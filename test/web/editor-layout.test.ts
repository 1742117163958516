// Where the editor puts blocks (web/src/editor/layout.ts): a block added from the palette lands beside the one it
// follows without covering another, connected from the right handle; Arrange lays the graph out left to right.
import { describe, expect, it } from 'vitest';
import { arrange, followHandle, placeBeside, sizeOf } from '../../web/src/editor/layout.js';
import { fromState, type FlowEdge, type FlowNode } from '../../web/src/editor/model.js';
import type { WorkflowState } from '../../src/workflow/index.js';

const at = (x: number, y: number) => ({ x, y });
function state(): WorkflowState {
  const block = (id: string, type: string, position: { x: number; y: number }, extra: Record<string, unknown> = {}) => ({
    id,
    type,
    name: id,
    position,
    enabled: true,
    config: {},
    ...extra,
  });
  return {
    blocks: {
      start: block('start', 'api_trigger', at(0, 0)),
      // Everything piled where a careless editor would put it.
      call: block('call', 'api', at(0, 0), { config: { url: 'https://example.com' } }),
      check: block('check', 'condition', at(0, 0), {
        config: { conditions: [{ id: 'yes', title: 'if', expression: 'true' }, { id: 'no', title: 'else', expression: '' }] },
      }),
      done: block('done', 'response', at(0, 0)),
      each: block('each', 'loop', at(0, 0), { config: { width: 420, height: 240 } }),
      step: block('step', 'function', at(0, 0), { parentId: 'each', config: { code: 'return 1' } }),
      step2: block('step2', 'function', at(0, 0), { parentId: 'each', config: { code: 'return 2' } }),
    },
    edges: [
      { id: 'e1', source: 'start', target: 'call' },
      { id: 'e2', source: 'call', target: 'check' },
      { id: 'e3', source: 'check', target: 'done', sourceHandle: 'condition-yes' },
      { id: 'e4', source: 'check', target: 'each', sourceHandle: 'condition-no' },
      { id: 'e5', source: 'each', target: 'step' },
      { id: 'e6', source: 'step', target: 'step2' },
    ],
    loops: { each: { id: 'each', nodes: ['step', 'step2'], loopType: 'for', iterations: 2 } },
    parallels: {},
  };
}

const box = (n: FlowNode) => ({ ...n.position, ...sizeOf(n) });
const overlap = (a: FlowNode, b: FlowNode) => {
  const [p, q] = [box(a), box(b)];
  return p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;
};

describe('placing a block from the palette', () => {
  it('goes right of the block it follows, below any block already there', () => {
    const { nodes } = fromState(state());
    const start = nodes.find((n) => n.id === 'start')!;
    const lone = nodes.filter((n) => n.id === 'start');
    expect(placeBeside(start, lone)).toEqual({ x: 280, y: 0 });
    const spot = placeBeside({ ...start, position: at(-280, 0) }, nodes);
    expect(spot.x).toBe(0);
    const placed = { ...start, id: 'new', position: spot } as FlowNode;
    for (const other of nodes.filter((n) => !n.parentId)) expect(overlap(placed, other), other.id).toBe(false);
  });

  it('is connected from the normal output, a free condition branch, and never from a response', () => {
    const { nodes, edges } = fromState(state());
    const byId = (id: string) => nodes.find((n) => n.id === id)!;
    expect(followHandle(byId('call'), edges)).toBe('source');
    expect(followHandle(byId('done'), edges)).toBeUndefined();
    expect(followHandle(byId('check'), edges)).toBeUndefined();
    const onlyYes: FlowEdge[] = edges.filter((e) => e.id !== 'e4');
    expect(followHandle(byId('check'), onlyYes)).toBe('condition-no');
  });
});

describe('arrange', () => {
  it('lays the graph out left to right with no block on another, children inside their container', () => {
    const { nodes, edges } = fromState(state());
    const arranged = arrange(nodes, edges);
    const byId = (id: string) => arranged.find((n) => n.id === id)!;
    const x = (id: string) => byId(id).position.x;
    expect(x('start')).toBeLessThan(x('call'));
    expect(x('call')).toBeLessThan(x('check'));
    expect(x('check')).toBeLessThan(x('done'));
    expect(x('check')).toBeLessThan(x('each'));
    expect(x('step')).toBeLessThan(x('step2'));
    const top = arranged.filter((n) => !n.parentId);
    for (const a of top) for (const b of top) if (a !== b) expect(overlap(a, b), `${a.id} / ${b.id}`).toBe(false);
    // The children sit inside the (grown) container, in its own coordinates.
    const container = sizeOf(byId('each'));
    for (const child of ['step', 'step2'].map(byId)) {
      expect(child.position.x).toBeGreaterThanOrEqual(0);
      expect(child.position.x + sizeOf(child).width).toBeLessThanOrEqual(container.width);
      expect(child.position.y + sizeOf(child).height).toBeLessThanOrEqual(container.height);
    }
  });
});
