// Problems the editor shows (web/src/editor/problems.ts): the server refuses a state with a list of problems, each with
// a path; the editor puts each on the block or connection it concerns, so the user sees it where it is. These run
// the server's own check (validateState, with the paths PATCH /api/v1/workflows/:id answers with) on states a user
// could make, and look at where each problem lands.
import { describe, expect, it } from 'vitest';
import { blockCatalog } from '../../src/blocks/registry.js';
import { validateState, type WorkflowState } from '../../src/workflow/index.js';
import { placeProblems } from '../../web/src/editor/problems.js';

/** What the editor would show after saving `state`: the server's problems placed on the canvas. */
function shown(state: WorkflowState) {
  const result = validateState(state, blockCatalog);
  if (result.ok) return placeProblems([], state);
  // As src/services/workflows.ts (checkState) reports them in a 400's details.
  const details = result.problems.map((p) => ({ path: p.path ? `state.${p.path}` : 'state', message: p.message }));
  return placeProblems(details, state);
}

function flow(): WorkflowState {
  return {
    blocks: {
      start: { id: 'start', type: 'api_trigger', name: 'Start', position: { x: 0, y: 0 }, enabled: true, config: { inputFormat: [] } },
      fetch: { id: 'fetch', type: 'api', name: 'Fetch', position: { x: 200, y: 0 }, enabled: true, config: { url: 'https://example.com', method: 'GET' } },
      reply: { id: 'reply', type: 'response', name: 'Reply', position: { x: 400, y: 0 }, enabled: true, config: { status: 200, body: { ok: true } } },
    },
    edges: [
      { id: 'e1', source: 'start', target: 'fetch', sourceHandle: 'source' },
      { id: 'e2', source: 'fetch', target: 'reply', sourceHandle: 'source' },
    ],
    loops: {},
    parallels: {},
  };
}

describe('editor problems', () => {
  it('a valid workflow shows no problems', () => {
    expect(shown(flow())).toEqual({ byNode: {}, byField: {}, byEdge: {}, general: [] });
  });

  it('a connection to a block that is gone is shown on that connection and on the block it leaves', () => {
    const state = flow();
    delete state.blocks.reply;
    const problems = shown(state);
    expect(problems.byEdge.e2).toEqual([expect.stringContaining('names no block')]);
    expect(problems.byEdge.e2[0]).toMatch(/^target: /);
    expect(problems.byNode.fetch).toEqual([expect.stringMatching(/^edge → reply: .*names no block/)]);
    expect(problems.byEdge.e1).toBeUndefined();
    expect(problems.general).toEqual([]);
  });

  it('a branch whose condition was removed is shown on its connection, named after the target block', () => {
    const state = flow();
    state.blocks.check = {
      id: 'check',
      type: 'condition',
      name: 'Check',
      position: { x: 300, y: 100 },
      enabled: true,
      config: { conditions: [{ id: 'a', title: 'if', expression: 'true' }] },
    };
    state.edges.push({ id: 'e3', source: 'fetch', target: 'check', sourceHandle: 'source' });
    state.edges.push({ id: 'e4', source: 'check', target: 'reply', sourceHandle: 'condition-gone' });
    const problems = shown(state);
    expect(problems.byEdge.e4).toEqual([expect.stringContaining('condition "gone" does not exist')]);
    expect(problems.byNode.check).toEqual([expect.stringMatching(/^edge → Reply: /)]);
  });

  it("a block's own problem (a reference to no block) is shown on that block, with the field it is in", () => {
    const state = flow();
    state.blocks.fetch.config.url = 'https://example.com/<nobody.id>';
    const problems = shown(state);
    expect(Object.keys(problems.byNode)).toEqual(['fetch']);
    expect(problems.byNode.fetch.join('\n')).toMatch(/config\.url: .*<nobody\.id>.*names no block/);
  });

  it('a problem inside a setting is also placed on that field of the form, down to the condition or JSON key', () => {
    const state = flow();
    state.blocks.fetch.config.url = 'https://example.com/<nobody.id>';
    state.blocks.reply.config.body = { order: '<ghost.data>' };
    state.blocks.check = {
      id: 'check',
      type: 'condition',
      name: 'Check',
      position: { x: 300, y: 100 },
      enabled: true,
      config: { conditions: [{ id: 'a', title: 'if', expression: 'true' }, { id: 'b', title: 'else if', expression: '<nope.status> === 1' }] },
    };
    state.edges.push({ id: 'e3', source: 'fetch', target: 'check', sourceHandle: 'source' });
    const problems = shown(state);
    expect(problems.byField.fetch).toEqual([{ path: ['url'], message: 'reference <nobody.id> names no block' }]);
    expect(problems.byField.reply).toEqual([{ path: ['body', 'order'], message: 'reference <ghost.data> names no block' }]);
    expect(problems.byField.check).toEqual([{ path: ['conditions', '1', 'expression'], message: 'reference <nope.status> names no block' }]);
    // Not about a setting: on the block only.
    expect(problems.byField.start).toBeUndefined();
  });

  it("a container's settings problem is shown on the container block", () => {
    const state = flow();
    state.blocks.repeat = { id: 'repeat', type: 'loop', name: 'Repeat', position: { x: 0, y: 200 }, enabled: true, config: {} };
    state.loops.repeat = { id: 'repeat', nodes: [], loopType: 'for' };
    const problems = shown(state);
    expect(problems.byNode.repeat).toEqual(['iterations: a for loop needs iterations']);
    // The editor keeps a container's settings in its config: the field is the setting's key.
    expect(problems.byField.repeat).toEqual([{ path: ['iterations'], message: 'a for loop needs iterations' }]);
  });

  it('a problem about no particular block is shown on the canvas as a whole', () => {
    const state = flow();
    state.blocks.second = { ...state.blocks.start, id: 'second', name: 'Second', position: { x: 0, y: 300 } };
    const problems = shown(state);
    // Two API triggers: reported on the second; a problem that names nothing the editor knows goes to the general list.
    expect(problems.byNode.second).toEqual(['type: A workflow contains at most one API trigger']);
    expect(placeProblems([{ path: 'state', message: 'is too large' }, { path: '', message: 'boom' }], state).general).toEqual([
      'state: is too large',
      'boom',
    ]);
    // A path naming a block that is not in the state (deleted meanwhile) is not lost either.
    expect(placeProblems([{ path: 'state.blocks.ghost.config.url', message: 'is required' }], state)).toEqual({
      byNode: {},
      byField: {},
      byEdge: {},
      general: ['state.blocks.ghost.config.url: is required'],
    });
  });
});
