// The edge manager on its own: given how nodes end, which nodes become ready, which settle as skipped, and when a
// failure is left unhandled. Graphs come from real, validated states (buildGraph), but nothing runs.
import { describe, expect, it } from 'vitest';
import { createEdgeManager, type EdgeManager, type Settled } from '../../src/engine/edge-manager.js';
import { buildGraph, type GraphNode, type WorkflowGraph } from '../../src/engine/graph.js';
import { apiTrigger, block, chain, edge, state, type StateParts } from './helpers.js';

interface Fixture {
  graph: WorkflowGraph;
  edges: EdgeManager;
  node(id: string): GraphNode;
}

function topLevel(parts: StateParts, startBlockId: string | null = 'start'): Fixture {
  const graph = buildGraph(state(parts));
  return {
    graph,
    edges: createEdgeManager(graph.levels.get(null)!, startBlockId),
    node: (id) => graph.nodes.get(id)!,
  };
}

const ids = (settled: Settled) => ({ ready: settled.ready.map((n) => n.id), skipped: settled.skipped.map((n) => n.id) });

function routed(result: ReturnType<EdgeManager['route']>) {
  if (result.kind !== 'routed') throw new Error(`expected the exit to be routed, got ${result.kind}`);
  return ids(result);
}

describe('starting a level', () => {
  it('hands out the start block and blocks without incoming edges, and nothing downstream yet', () => {
    const { edges } = topLevel({
      blocks: [apiTrigger(), block('a', 'echo'), block('b', 'echo'), block('solo', 'echo')],
      edges: chain('start', 'a', 'b'),
    });
    expect(ids(edges.begin())).toEqual({ ready: ['start', 'solo'], skipped: [] });
    expect(edges.state('a')).toBe('waiting');
  });

  it('activates a container body through its entry edges', () => {
    const graph = buildGraph(
      state({
        blocks: [apiTrigger(), block('box', 'loop'), block('first', 'echo', {}, { parentId: 'box' }), block('second', 'echo', {}, { parentId: 'box' })],
        edges: [edge('start', 'box'), edge('box', 'first'), edge('first', 'second')],
        loops: [{ id: 'box', nodes: ['first', 'second'], loopType: 'for', iterations: 2 }],
      }),
    );
    const body = createEdgeManager(graph.levels.get('box')!, 'start');
    expect(ids(body.begin())).toEqual({ ready: ['first'], skipped: [] });
    expect(routed(body.route(graph.nodes.get('first')!, { kind: 'success' }))).toEqual({ ready: ['second'], skipped: [] });
  });
});

describe('activation by handle', () => {
  const conditionState = (): StateParts => ({
    blocks: [
      apiTrigger(),
      block('check', 'condition', {
        conditions: [
          { id: 'yes', title: 'if', expression: 'true' },
          { id: 'no', title: 'else', expression: '' },
        ],
      }),
      block('onYes', 'echo'),
      block('onNo', 'echo'),
      block('afterNo', 'echo'),
    ],
    edges: [
      edge('start', 'check'),
      edge('check', 'onYes', 'condition-yes'),
      edge('check', 'onNo', 'condition-no'),
      edge('onNo', 'afterNo'),
    ],
  });

  it('makes ready only the targets of the chosen condition handle and skips the other branch to its end', () => {
    const { edges, node } = topLevel(conditionState());
    edges.begin();
    expect(routed(edges.route(node('start'), { kind: 'success' }))).toEqual({ ready: ['check'], skipped: [] });
    expect(routed(edges.route(node('check'), { kind: 'success', handle: 'condition-yes' }))).toEqual({
      ready: ['onYes'],
      skipped: ['onNo', 'afterNo'],
    });
    expect(edges.state('afterNo')).toBe('skipped');
  });

  it('skips every branch when the node chooses a handle no edge leaves from', () => {
    const { edges, node } = topLevel(conditionState());
    edges.begin();
    edges.route(node('start'), { kind: 'success' });
    expect(routed(edges.route(node('check'), { kind: 'success', handle: 'condition-missing' }))).toEqual({
      ready: [],
      skipped: ['onYes', 'onNo', 'afterNo'],
    });
  });

  it('follows the normal `source` handle when the node names none', () => {
    const { edges, node } = topLevel({ blocks: [apiTrigger(), block('a', 'echo'), block('b', 'echo')], edges: chain('start', 'a', 'b') });
    edges.begin();
    expect(routed(edges.route(node('start'), { kind: 'success' }))).toEqual({ ready: ['a'], skipped: [] });
  });
});

describe('error edges', () => {
  const risky = (withErrorEdge: boolean): StateParts => ({
    blocks: [apiTrigger(), block('risky', 'boom'), block('next', 'echo'), block('afterNext', 'echo'), ...(withErrorEdge ? [block('handler', 'echo')] : [])],
    edges: [edge('start', 'risky'), edge('risky', 'next'), edge('next', 'afterNext'), ...(withErrorEdge ? [edge('risky', 'handler', 'error')] : [])],
  });

  function at(parts: StateParts) {
    const fixture = topLevel(parts);
    fixture.edges.begin();
    fixture.edges.route(fixture.node('start'), { kind: 'success' });
    return fixture;
  }

  it('takes the error edge and skips the normal path when the node fails', () => {
    const { edges, node } = at(risky(true));
    expect(routed(edges.route(node('risky'), { kind: 'error' }))).toEqual({ ready: ['handler'], skipped: ['next', 'afterNext'] });
  });

  it('skips the error path when the node succeeds', () => {
    const { edges, node } = at(risky(true));
    expect(routed(edges.route(node('risky'), { kind: 'success' }))).toEqual({ ready: ['next'], skipped: ['handler'] });
  });

  it('reports a failure with no error edge as unhandled and settles nothing', () => {
    const { edges, node } = at(risky(false));
    expect(edges.route(node('risky'), { kind: 'error' })).toEqual({ kind: 'unhandled-error' });
    expect(edges.state('next')).toBe('waiting');
  });

  it('follows the normal edges for an error that is an outcome, when there is no error edge', () => {
    const { edges, node } = at(risky(false));
    expect(routed(edges.route(node('risky'), { kind: 'error', continueOnError: true }))).toEqual({ ready: ['next'], skipped: [] });
  });

  it('still prefers the error edge for an error that is an outcome', () => {
    const { edges, node } = at(risky(true));
    expect(routed(edges.route(node('risky'), { kind: 'error', continueOnError: true }))).toEqual({
      ready: ['handler'],
      skipped: ['next', 'afterNext'],
    });
  });
});

describe('joins', () => {
  const diamond = (): StateParts => ({
    blocks: [apiTrigger(), block('left', 'echo'), block('right', 'echo'), block('join', 'echo'), block('after', 'echo')],
    edges: [edge('start', 'left'), edge('start', 'right'), edge('left', 'join'), edge('right', 'join'), edge('join', 'after')],
  });

  function branches() {
    const fixture = topLevel(diamond());
    fixture.edges.begin();
    expect(routed(fixture.edges.route(fixture.node('start'), { kind: 'success' })).ready).toEqual(['left', 'right']);
    return fixture;
  }

  it('waits for every incoming branch, then runs once', () => {
    const { edges, node } = branches();
    expect(routed(edges.route(node('left'), { kind: 'success' }))).toEqual({ ready: [], skipped: [] });
    expect(edges.state('join')).toBe('waiting');
    expect(routed(edges.route(node('right'), { kind: 'success' }))).toEqual({ ready: ['join'], skipped: [] });
  });

  it('runs when one branch reached it and the other went dead', () => {
    const { edges, node } = branches();
    expect(ids(edges.pass(node('left')))).toEqual({ ready: [], skipped: [] });
    expect(routed(edges.route(node('right'), { kind: 'success' }))).toEqual({ ready: ['join'], skipped: [] });
  });

  it('is skipped, with everything after it, when every branch went dead', () => {
    const { edges, node } = branches();
    edges.pass(node('left'));
    expect(ids(edges.pass(node('right')))).toEqual({ ready: [], skipped: ['join', 'after'] });
    expect(edges.state('after')).toBe('skipped');
  });
});

describe('passing over a ready node', () => {
  it('skips what is reachable only through it, and marks it skipped', () => {
    const { edges, node } = topLevel({ blocks: [apiTrigger(), block('off', 'echo'), block('after', 'echo')], edges: chain('start', 'off', 'after') });
    edges.begin();
    expect(routed(edges.route(node('start'), { kind: 'success' })).ready).toEqual(['off']);
    expect(ids(edges.pass(node('off')))).toEqual({ ready: [], skipped: ['after'] });
    expect(edges.state('off')).toBe('skipped');
  });

  it('never hands out the running start block again when its own incoming edges settle', () => {
    const { edges, node } = topLevel(
      {
        blocks: [block('hookA', 'webhook_trigger', { path: 'a' }), block('hookB', 'webhook_trigger', { path: 'b' }), block('x', 'echo')],
        edges: [edge('hookA', 'x'), edge('x', 'hookB')],
      },
      'hookB',
    );
    expect(ids(edges.begin())).toEqual({ ready: ['hookA', 'hookB'], skipped: [] });
    expect(ids(edges.pass(node('hookA')))).toEqual({ ready: [], skipped: ['x'] });
    expect(edges.state('hookB')).toBe('ready');
  });
});
