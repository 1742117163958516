import { describe, expect, it } from 'vitest';
import { getPath, resolveValue, stringifyForTemplate, type ReferenceResolver } from '../../src/workflow/index.js';

const outputs: Record<string, unknown> = {
  api: { input: { id: 7, items: [{ name: 'first' }, { name: 'second' }], flag: false, nothing: null } },
  fetch: { data: { user: { name: 'Ada' } }, status: 200 },
  evil: { text: '<fetch.status> {{SECRET}}' },
};

const resolver: ReferenceResolver = {
  block: (ref) => getPath(outputs[ref.name], ref.path),
  env: (name) => {
    if (name === 'SECRET') return 's3cret';
    throw new Error(`Environment variable ${name} is not defined`);
  },
};

describe('getPath', () => {
  it('walks object keys and array indexes', () => {
    expect(getPath(outputs.api, ['input', 'items', 1, 'name'])).toBe('second');
    expect(getPath({ a: [[1, 2]] }, ['a', 0, 1])).toBe(2);
  });

  it('is undefined when any step is missing', () => {
    expect(getPath(outputs.api, ['input', 'missing', 'deeper'])).toBeUndefined();
    expect(getPath(outputs.api, ['input', 'items', 5])).toBeUndefined();
    expect(getPath('text', ['length'])).toBeUndefined();
    expect(getPath(null, ['a'])).toBeUndefined();
  });

  it('keeps null values found on the path', () => {
    expect(getPath(outputs.api, ['input', 'nothing'])).toBeNull();
  });

  it('never reaches prototypes', () => {
    expect(getPath({}, ['constructor'])).toBeUndefined();
    expect(getPath({}, ['__proto__'])).toBeUndefined();
    expect(getPath({ a: {} }, ['a', 'toString'])).toBeUndefined();
  });

  it('returns the value itself for an empty path', () => {
    expect(getPath(outputs.fetch, [])).toBe(outputs.fetch);
  });
});

describe('stringifyForTemplate', () => {
  it('renders each kind of value', () => {
    expect(stringifyForTemplate('plain')).toBe('plain');
    expect(stringifyForTemplate(null)).toBe('');
    expect(stringifyForTemplate(undefined)).toBe('');
    expect(stringifyForTemplate(42)).toBe('42');
    expect(stringifyForTemplate(false)).toBe('false');
    expect(stringifyForTemplate({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(stringifyForTemplate([1, 2])).toBe('[1,2]');
    expect(stringifyForTemplate(new Date('2024-01-02T03:04:05Z'))).toBe('2024-01-02T03:04:05.000Z');
  });

  it('does not throw on values JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => stringifyForTemplate(cyclic)).not.toThrow();
  });
});

describe('resolveValue', () => {
  it('keeps the type of a value that is exactly one reference', () => {
    expect(resolveValue('<api.input.id>', resolver)).toBe(7);
    expect(resolveValue('<api.input.flag>', resolver)).toBe(false);
    expect(resolveValue('<api.input.items>', resolver)).toEqual([{ name: 'first' }, { name: 'second' }]);
    expect(resolveValue('<api.input.nothing>', resolver)).toBeNull();
    expect(resolveValue('<api.input.absent>', resolver)).toBeUndefined();
  });

  it('stringifies references inside longer text', () => {
    expect(resolveValue('id=<api.input.id>', resolver)).toBe('id=7');
    expect(resolveValue(' <api.input.id>', resolver)).toBe(' 7');
    expect(resolveValue('<api.input.id><api.input.flag>', resolver)).toBe('7false');
    expect(resolveValue('user: <fetch.data.user>', resolver)).toBe('user: {"name":"Ada"}');
    expect(resolveValue('[<api.input.nothing>|<api.input.absent>]', resolver)).toBe('[|]');
  });

  it('always gives env references as strings', () => {
    expect(resolveValue('{{SECRET}}', resolver)).toBe('s3cret');
    expect(resolveValue('Bearer {{ SECRET }}', resolver)).toBe('Bearer s3cret');
    expect(() => resolveValue('{{MISSING}}', resolver)).toThrow(/MISSING/);
  });

  it('walks arrays and objects deeply without touching other leaves', () => {
    const input = {
      url: 'https://x/<api.input.id>',
      headers: [{ key: 'Authorization', value: 'Bearer {{SECRET}}' }],
      body: { user: '<fetch.data.user>', nested: { list: ['<api.input.items[0].name>', 3, true, null] } },
      timeoutMs: 1000,
    };
    expect(resolveValue(input, resolver)).toEqual({
      url: 'https://x/7',
      headers: [{ key: 'Authorization', value: 'Bearer s3cret' }],
      body: { user: { name: 'Ada' }, nested: { list: ['first', 3, true, null] } },
      timeoutMs: 1000,
    });
    expect(input.url).toBe('https://x/<api.input.id>');
  });

  it('does not re-resolve references found inside resolved data', () => {
    expect(resolveValue('<evil.text>', resolver)).toBe('<fetch.status> {{SECRET}}');
    expect(resolveValue('x <evil.text>', resolver)).toBe('x <fetch.status> {{SECRET}}');
  });

  it('leaves text without references, and non-plain objects, untouched', () => {
    expect(resolveValue('a < b and <div>', resolver)).toBe('a < b and <div>');
    const date = new Date(0);
    expect(resolveValue(date, resolver)).toBe(date);
  });

  it('keeps a "__proto__" key as data', () => {
    const input: unknown = JSON.parse('{"__proto__": {"polluted": "<api.input.id>"}}');
    const output = resolveValue(input, resolver) as Record<string, unknown>;
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(output, '__proto__')?.value).toEqual({ polluted: 7 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
