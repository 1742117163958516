// Renaming a block rewrites every reference that reached it by name (src/workflow/rename.ts, issue 23.1): in every
// block type's config, in loop and parallel item sources; the renamed workflow validates with the real catalogue.
import { describe, expect, it } from 'vitest';
import { blockCatalog, blockRegistry } from '../../src/blocks/registry.js';
import { findReferences, isReferenceableName, renameBlock, validateState, type WorkflowState } from '../../src/workflow/index.js';

const SOURCE = 'Call Echo';

/** A config for every block type that uses `<callecho…>` wherever that type takes text. */
const referencingConfigs: Record<string, Record<string, unknown>> = {
  api_trigger: { inputFormat: [{ name: 'q', type: 'string' }] },
  webhook_trigger: { path: 'rename-hook' },
  schedule_trigger: { cron: '0 * * * *' },
  chat_trigger: {},
  queue_trigger: { credentialId: 'cred_rabbit', queue: 'orders' },
  api: {
    url: 'https://example.com/<callecho.data.id>',
    method: 'POST',
    queryParams: [{ key: 'q', value: '<callecho.data.q>' }],
    headers: [{ key: 'X-Status', value: '<callecho.status>' }],
    body: { nested: ['<callecho.data>', { deeper: 'id=<Call Echo.data.id>' }] },
  },
  function: { code: 'const d = <callecho.data>; return d.items[0] ?? <callecho.status>;' },
  condition: {
    conditions: [
      { id: 'c1', title: 'if', expression: '<callecho.status> === 200' },
      { id: 'c2', title: 'else', expression: '' },
    ],
  },
  response: { status: '<callecho.status>', headers: [{ key: 'X-From', value: '<callecho.headers.server>' }], body: '<callecho.data>' },
  variables: { assignments: [{ name: 'last', value: '<callecho.data>' }] },
  wait: { ms: '<callecho.data.delay>' },
  agent: { provider: 'openai', model: 'gpt-4o-mini', systemPrompt: 'Be brief.', userPrompt: 'Summarise <callecho.data>' },
  workflow: { workflowId: 'wf_child', input: { payload: '<callecho.data>' } },
  approval: { message: 'Status was <callecho.status>' },
  // Never in the SQL text (refused at save): values go in params.
  database: { credentialId: 'cred_db', query: 'select * from users where id = $1', params: ['<callecho.data.id>'] },
  redis: { credentialId: 'cred_redis', operation: 'set', key: 'user:<callecho.data.id>', value: '<callecho.data>' },
  email: { credentialId: 'cred_smtp', from: 'bot@example.com', to: '<callecho.data.email>', subject: 'Status <callecho.status>' },
  publish: { credentialId: 'cred_rabbit', queue: 'out', message: { echoed: '<callecho.data>' } },
};

function stateWithEveryBlockType(): WorkflowState {
  const blocks: WorkflowState['blocks'] = {
    start: { id: 'start', type: 'api_trigger', name: 'Start', position: { x: 0, y: 0 }, enabled: true, config: referencingConfigs.api_trigger },
    source: { id: 'source', type: 'api', name: SOURCE, position: { x: 0, y: 0 }, enabled: true, config: { url: 'https://example.com', method: 'GET' } },
    each: { id: 'each', type: 'loop', name: 'Each', position: { x: 0, y: 0 }, enabled: true, config: {} },
    fan: { id: 'fan', type: 'parallel', name: 'Fan', position: { x: 0, y: 0 }, enabled: true, config: {} },
  };
  const edges: WorkflowState['edges'] = [
    { id: 'e-start', source: 'start', target: 'source' },
    { id: 'e-each', source: 'source', target: 'each' },
    { id: 'e-fan', source: 'source', target: 'fan' },
  ];
  for (const [type, config] of Object.entries(referencingConfigs)) {
    if (blockRegistry[type].trigger) continue;
    const id = `b_${type}`;
    blocks[id] = { id, type, name: `Use ${type}`, position: { x: 0, y: 0 }, enabled: true, config };
    edges.push({ id: `e-${id}`, source: 'source', target: id });
  }
  return {
    blocks,
    edges,
    loops: { each: { id: 'each', nodes: [], loopType: 'forEach', forEachItems: '<callecho.data.items>' } },
    parallels: { fan: { id: 'fan', nodes: [], parallelType: 'collection', distribution: '<callecho.data.items>' } },
  };
}

/** Every block reference in the state, by the name it is written with. */
function referencedNames(state: WorkflowState): string[] {
  const names: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const ref of findReferences(value)) if (ref.kind === 'block') names.push(ref.name);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(Object.values(state.blocks).map((b) => b.config));
  visit(state.loops);
  visit(state.parallels);
  return names;
}

const problemsOf = (state: WorkflowState) => {
  const result = validateState(state, blockCatalog);
  return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
};

describe('renaming a block', () => {
  it('covers every block type the registry knows', () => {
    expect(Object.keys(referencingConfigs).sort()).toEqual(Object.keys(blockRegistry).sort());
  });

  it('rewrites its references in every block type and container, and the workflow stays valid', () => {
    const before = stateWithEveryBlockType();
    expect(problemsOf(before)).toEqual([]);
    const count = referencedNames(before).filter((n) => n === 'callecho').length;
    expect(count).toBe(24);

    const after = renameBlock(before, 'source', 'Fetch User');
    expect(after.blocks.source.name).toBe('Fetch User');
    expect(problemsOf(after)).toEqual([]);
    expect(referencedNames(after).filter((n) => n === 'callecho')).toEqual([]);
    expect(referencedNames(after).filter((n) => n === 'fetchuser')).toHaveLength(count);
    // Only the name changes: paths, surrounding text and code are kept.
    expect(after.blocks.b_function.config.code).toBe('const d = <fetchuser.data>; return d.items[0] ?? <fetchuser.status>;');
    expect(after.blocks.b_api.config.body).toEqual({ nested: ['<fetchuser.data>', { deeper: 'id=<fetchuser.data.id>' }] });
    expect(after.loops.each.forEachItems).toBe('<fetchuser.data.items>');
    expect(after.parallels.fan.distribution).toBe('<fetchuser.data.items>');
    // Without the rewrite the renamed workflow is refused (the bug this guards against).
    const renamedOnly = { ...before, blocks: { ...before.blocks, source: { ...before.blocks.source, name: 'Fetch User' } } };
    expect(problemsOf(renamedOnly).some((p) => p.includes('<callecho.data> names no block'))).toBe(true);
  });

  it('leaves references by id, by trigger alias and to other blocks alone', () => {
    const state = stateWithEveryBlockType();
    state.blocks.b_function.config = { code: 'return [<source.data>, <api.q>, <start.q>, <useapi.status>, <callecho.data>];' };
    const after = renameBlock(state, 'source', 'Fetch');
    expect(after.blocks.b_function.config.code).toBe('return [<source.data>, <api.q>, <start.q>, <useapi.status>, <fetch.data>];');
    // Renaming the trigger keeps `<api.x>` (the alias) and rewrites `<start.x>`.
    const trigger = renameBlock(state, 'start', 'Inbound');
    expect(trigger.blocks.b_function.config.code).toContain('<api.q>, <inbound.q>');
  });

  it('keeps the old references while the new name cannot be referenced, so validation points at them', () => {
    const state = stateWithEveryBlockType();
    for (const name of ['', '2nd call', 'a.b', 'Café']) {
      expect(isReferenceableName(name), name).toBe(false);
      const after = renameBlock(state, 'source', name);
      expect(after.blocks.source.name).toBe(name);
      expect(after.blocks.b_function.config.code).toContain('<callecho.data>');
    }
    expect(isReferenceableName('Fetch user-2')).toBe(true);
  });

  it('does not hand its references to another block that has the new name already', () => {
    const state = stateWithEveryBlockType();
    state.blocks.b_function.config = { code: 'return [<callecho.data>, <usewait.ms>];' };
    const after = renameBlock(state, 'source', 'Use Wait');
    expect(after.blocks.b_function.config.code).toBe('return [<callecho.data>, <usewait.ms>];');
    // The clash is reported, and the references still say which block they meant.
    expect(problemsOf(after)).toContain(
      'blocks.b_wait.name: block name "Use wait" is already used by block "source" (names are compared lowercased with spaces removed)',
    );
  });
});
