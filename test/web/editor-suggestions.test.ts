// Reference autocomplete (web/src/editor/suggestions.ts), the one matching both the plain inputs and the code editor
// use: what is being typed before the caret, and which reachable names are offered for it.
import { describe, expect, it } from 'vitest';
import { MAX_MATCHES, matchesFor, tokenAt, type Suggestion } from '../../web/src/editor/suggestions.js';

const reachable: Suggestion[] = [
  { value: '<fetch.data>', detail: 'API' },
  { value: '<fetch.status>', detail: 'API' },
  { value: '<myblock.result>', detail: 'Function' },
  { value: '<start.input>', detail: 'API trigger' },
  { value: '{{API_TOKEN}}', detail: 'environment variable' },
];

describe('reference suggestions', () => {
  it('a `<` just typed offers every block output; more letters narrow it down', () => {
    const text = 'return <';
    expect(tokenAt(text, text.length)).toEqual({ kind: 'block', query: '', start: 7, end: 8 });
    expect(matchesFor(reachable, tokenAt(text, text.length)).map((s) => s.value)).toEqual([
      '<fetch.data>',
      '<fetch.status>',
      '<myblock.result>',
      '<start.input>',
    ]);
    const more = 'return <fetch.st';
    expect(matchesFor(reachable, tokenAt(more, more.length)).map((s) => s.value)).toEqual(['<fetch.status>']);
  });

  it('names match as references do: case and spaces do not matter (the editor offers normalized names)', () => {
    const text = '<My Block';
    expect(matchesFor(reachable, tokenAt(text, text.length)).map((s) => s.value)).toEqual(['<myblock.result>']);
  });

  it('only the part before the caret counts, and a closed reference is not being typed', () => {
    const text = 'a <fetch.data> b';
    expect(tokenAt(text, text.length)).toBeNull();
    expect(tokenAt(text, 'a <fet'.length)).toEqual({ kind: 'block', query: 'fet', start: 2, end: 6 });
    expect(tokenAt('x = 1;', 6)).toBeNull();
    expect(matchesFor(reachable, null)).toEqual([]);
  });

  it('`{{` offers environment variables, not block outputs', () => {
    const text = 'Bearer {{ api';
    const token = tokenAt(text, text.length);
    expect(token).toEqual({ kind: 'env', query: 'api', start: 7, end: 13 });
    expect(matchesFor(reachable, token).map((s) => s.value)).toEqual(['{{API_TOKEN}}']);
  });

  it('the list is kept short', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ value: `<block${i}.result>` }));
    expect(matchesFor(many, tokenAt('<', 1))).toHaveLength(MAX_MATCHES);
  });
});
