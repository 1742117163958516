import { describe, expect, it } from 'vitest';
import { MAX_CONFIG_DEPTH, validateState } from '../../src/workflow/index.js';
import { block, catalog, doc, problemsOf, validDoc } from './fixtures.js';

describe('validateState: blocks', () => {
  it('accepts a valid workflow and returns it with defaults applied', () => {
    const parts = validDoc();
    delete parts.blocks![2].position;
    delete parts.blocks![2].enabled;
    const result = validateState(doc(parts), catalog);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.state.blocks.reply).toMatchObject({ position: { x: 0, y: 0 }, enabled: true });
    expect(result.state.blocks.fetch.config).toEqual({ url: 'https://example.com/users/<api.input.id>' });
    expect(result.state.edges).toHaveLength(2);
  });

  it('rejects a block whose key differs from its id', () => {
    const input = doc({ blocks: [block('a', 'wait')] });
    (input.blocks as Record<string, unknown>).other = block('a2', 'wait', { name: 'Other' });
    expect(problemsOf(input)).toEqual([{ path: 'blocks.other.id', message: 'block id "a2" does not match its key "other"' }]);
  });

  it('rejects unknown block types but knows the container types without a catalog entry', () => {
    const problems = problemsOf(
      doc({ blocks: [block('x', 'teleport'), block('proto', 'constructor'), block('l', 'loop')], loops: [{ id: 'l', nodes: [], loopType: 'for', iterations: 2 }] }),
    );
    expect(problems).toEqual([
      { path: 'blocks.x.type', message: 'unknown block type "teleport"' },
      { path: 'blocks.proto.type', message: 'unknown block type "constructor"' },
    ]);
  });

  it('validates each config with its block type schema, under blocks.<id>.config', () => {
    const problems = problemsOf(
      doc({ blocks: [block('a', 'api', { config: { url: '', method: 'PATCH' } }), block('f', 'function', { config: {} })] }),
    );
    expect(problems.map((p) => p.path)).toEqual(['blocks.a.config.url', 'blocks.a.config.method', 'blocks.f.config.code']);
    expect(problems[0].message).toMatch(/>=1 characters/);
  });

  it('refuses configs nested deeper than the limit instead of walking them', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < MAX_CONFIG_DEPTH + 5; i += 1) deep = { d: deep };
    const problems = problemsOf(doc({ blocks: [block('w', 'wait', { config: deep as Record<string, unknown> })] }));
    expect(problems).toHaveLength(1);
    expect(problems[0].path).toMatch(/^blocks\.w\.config(\.d)+$/);
    expect(problems[0].message).toBe(`config is nested deeper than ${MAX_CONFIG_DEPTH} levels`);
  });

  it('rejects two blocks whose names are equal once normalized', () => {
    const problems = problemsOf(
      doc({
        blocks: [
          block('a', 'wait', { name: 'Fetch User' }),
          block('b', 'wait', { name: 'fetchuser' }),
          block('c', 'wait', { name: ' FETCH\tUSER ' }),
          block('d', 'wait', { name: 'Fetch Users' }),
        ],
      }),
    );
    expect(problems).toEqual([
      {
        path: 'blocks.b.name',
        message: 'block name "fetchuser" is already used by block "a" (names are compared lowercased with spaces removed)',
      },
      {
        path: 'blocks.c.name',
        message: 'block name " FETCH\tUSER " is already used by block "a" (names are compared lowercased with spaces removed)',
      },
    ]);
  });

  it('rejects reserved names', () => {
    const problems = problemsOf(
      doc({ blocks: [block('a', 'wait', { name: 'Loop' }), block('b', 'wait', { name: 'Vari able' }), block('c', 'wait', { name: 'parallel' })] }),
    );
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['blocks.a.name', 'block name "Loop" is reserved for <loop.…> references'],
      ['blocks.b.name', 'block name "Vari able" is reserved for <variable.…> references'],
      ['blocks.c.name', 'block name "parallel" is reserved for <parallel.…> references'],
    ]);
  });

  it('allows at most one API trigger', () => {
    const problems = problemsOf(
      doc({ blocks: [block('t1', 'api_trigger'), block('t2', 'api_trigger'), block('t3', 'api_trigger')] }),
    );
    expect(problems).toEqual([
      { path: 'blocks.t2.type', message: 'A workflow contains at most one API trigger' },
      { path: 'blocks.t3.type', message: 'A workflow contains at most one API trigger' },
    ]);
  });

  it('allows one trigger of each other kind alongside the API trigger', () => {
    expect(
      problemsOf(doc({ blocks: [block('t1', 'api_trigger'), block('t2', 'webhook_trigger'), block('t3', 'chat_trigger')] })),
    ).toEqual([]);
  });
});
