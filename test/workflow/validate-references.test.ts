import { describe, expect, it } from 'vitest';
import { block, doc, edge, problemsOf, type DocParts } from './fixtures.js';

function withConfig(config: Record<string, unknown>, extra: DocParts = {}): DocParts {
  return {
    blocks: [
      block('trigger', 'api_trigger', { name: 'Start' }),
      block('fetch', 'api', { name: 'Fetch User', config: { url: 'https://x' } }),
      block('use', 'response', { name: 'Use', config }),
      ...(extra.blocks ?? []),
    ],
    edges: [edge('trigger', 'fetch'), edge('fetch', 'use'), ...(extra.edges ?? [])],
    loops: extra.loops,
    parallels: extra.parallels,
  };
}

describe('validateState: references', () => {
  it('accepts references by name (any case and spacing), by id, and through trigger aliases', () => {
    const config = {
      a: '<Fetch User.data>',
      b: '<fetchuser.status>',
      c: 'id: <fetch.data.id>',
      d: '<api.input.items[0]>',
      e: '<Start.input>',
      f: '<variable.total>',
    };
    expect(problemsOf(doc(withConfig(config)))).toEqual([]);
  });

  it('reports each unknown name at the string that holds it, anywhere in the config', () => {
    const config = { body: { nested: ['ok <fetch.data>', 'bad <Nope.x> and <ghost.y[1]>'] }, top: '<nope.z>' };
    expect(problemsOf(doc(withConfig(config)))).toEqual([
      { path: 'blocks.use.config.body.nested.1', message: 'reference <Nope.x> names no block' },
      { path: 'blocks.use.config.body.nested.1', message: 'reference <ghost.y[1]> names no block' },
      { path: 'blocks.use.config.top', message: 'reference <nope.z> names no block' },
    ]);
  });

  it('has no trigger alias when that trigger is absent', () => {
    const parts = withConfig({ a: '<webhook.body>' });
    expect(problemsOf(doc(parts))).toEqual([{ path: 'blocks.use.config.a', message: 'reference <webhook.body> names no block' }]);
  });

  it('ignores env references, HTML and comparisons', () => {
    const config = { a: '{{UNDEFINED_ANYWHERE}}', b: '<div class="a.b">x</div>', code: 'if (a < b.length && c > 2) {}' };
    expect(problemsOf(doc(withConfig(config)))).toEqual([]);
  });

  it('allows <loop.*> and <parallel.*> only inside such a container, nested containers included', () => {
    const parts = withConfig(
      { outside: '<loop.index> <parallel.currentItem>' },
      {
        blocks: [
          block('l', 'loop', { name: 'Loop Over' }),
          block('p', 'parallel', { name: 'Fan', parentId: 'l' }),
          block('inLoop', 'function', { name: 'In Loop', parentId: 'l', config: { code: 'x', i: '<loop.index>', p: '<parallel.index>' } }),
          block('inBoth', 'function', { name: 'In Both', parentId: 'p', config: { code: '<loop.currentItem> <parallel.currentItem>' } }),
        ],
        loops: [{ id: 'l', nodes: ['p', 'inLoop'], loopType: 'for', iterations: 2 }],
        parallels: [{ id: 'p', nodes: ['inBoth'], parallelType: 'count', count: 2 }],
      },
    );
    expect(problemsOf(doc(parts))).toEqual([
      { path: 'blocks.use.config.outside', message: 'reference <loop.index> is only valid inside a loop' },
      { path: 'blocks.use.config.outside', message: 'reference <parallel.currentItem> is only valid inside a parallel' },
      { path: 'blocks.inLoop.config.p', message: 'reference <parallel.index> is only valid inside a parallel' },
    ]);
  });

  it('checks references in loop items and parallel distributions, evaluated where the container sits', () => {
    const parts = withConfig(
      {},
      {
        blocks: [block('l', 'loop'), block('p', 'parallel')],
        loops: [{ id: 'l', nodes: [], loopType: 'forEach', forEachItems: '<missing.items>' }],
        parallels: [{ id: 'p', nodes: [], parallelType: 'collection', distribution: ['<loop.item>', '<fetch.data>'] }],
      },
    );
    expect(problemsOf(doc(parts))).toEqual([
      { path: 'loops.l.forEachItems', message: 'reference <missing.items> names no block' },
      { path: 'parallels.p.distribution.0', message: 'reference <loop.item> is only valid inside a loop' },
    ]);
  });

  it('reports a repeated bad reference in one string once', () => {
    expect(problemsOf(doc(withConfig({ a: '<x.y> <x.y> <x.y>' })))).toEqual([
      { path: 'blocks.use.config.a', message: 'reference <x.y> names no block' },
    ]);
  });
});
