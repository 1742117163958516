// The registry is what the engine runs and what validateState checks configs against.
import { describe, expect, it } from 'vitest';
import { blockCatalog, blockRegistry } from '../../src/blocks/registry.js';
import { validateState } from '../../src/workflow/index.js';

describe('block registry', () => {
  it('lists every built-in block type, keyed by its own type', () => {
    expect(Object.keys(blockRegistry).sort()).toEqual(
      ['agent', 'api', 'api_trigger', 'approval', 'chat_trigger', 'condition', 'database', 'email', 'function', 'publish', 'queue_trigger', 'redis', 'response', 'schedule_trigger', 'variables', 'wait', 'webhook_trigger', 'workflow'].sort(),
    );
    for (const [type, definition] of Object.entries(blockRegistry)) expect(definition.type).toBe(type);
  });

  it('marks trigger blocks with their trigger kind in the catalog', () => {
    const triggers = Object.entries(blockCatalog).flatMap(([type, entry]) => (entry.trigger ? [[type, entry.trigger]] : []));
    expect(Object.fromEntries(triggers)).toEqual({ api_trigger: 'api', webhook_trigger: 'webhook', schedule_trigger: 'schedule', chat_trigger: 'chat', queue_trigger: 'queue' });
  });

  it('lets validateState refuse a bad config and an unknown type', () => {
    const result = validateState(
      {
        blocks: {
          s: { id: 's', type: 'schedule_trigger', name: 'Nightly', config: { cron: 'every night' } },
          x: { id: 'x', type: 'teleport', name: 'Teleport', config: {} },
        },
        edges: [],
      },
      blockCatalog,
    );
    expect(result.ok).toBe(false);
    const paths = result.ok ? [] : result.problems.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['blocks.s.config.cron', 'blocks.x.type']));
  });

  it.each([
    { name: 'a reference where a number belongs', config: { ms: '<start.delay>' }, ok: true },
    { name: 'a reference where a list belongs', config: { ms: 5 }, type: 'response', responseConfig: { headers: '<start.headers>' }, ok: true },
    { name: 'a literal of the wrong type', config: { ms: 'soon' }, ok: false },
    { name: 'a missing required field', config: {}, ok: false },
  ])('defers schema checks on referenced values to run time: $name', ({ config, type, responseConfig, ok }) => {
    const target = type === 'response' ? { id: 't', type: 'response', name: 'Reply', config: responseConfig } : { id: 't', type: 'wait', name: 'Pause', config };
    const result = validateState(
      {
        blocks: { start: { id: 'start', type: 'api_trigger', name: 'Start', config: {} }, t: target },
        edges: [{ id: 'e1', source: 'start', target: 't' }],
      },
      blockCatalog,
    );
    expect(result.ok).toBe(ok);
  });
});
