// BlockDefinition.dataFields (blocks/types.ts) promises that a field is pure data: whatever it holds, the config is
// valid or not for the same reasons. A deployed config whose references sit only in such fields is checked once,
// with them empty, and every run's values are put in unchecked (engine/compiled-config.ts). A field declared so that
// the schema constrains, or that a refinement reads, would let a run through with a config its schema refuses.
// These tests hold every block definition that declares data fields to the promise.
import { describe, expect, it, vi } from 'vitest';
import { blockRegistry } from '../../src/blocks/registry.js';
import type { BlockDefinition } from '../../src/blocks/types.js';
import { deepFreeze } from '../../src/deep-freeze.js';
import { compiledConfig } from '../../src/engine/compiled-config.js';

/**
 * Per block type with data fields: configs its schema takes without them, and configs it refuses for a reason of
 * their own (a refinement reading a data field would change the answer for one of them or the other).
 */
const CONFIGS: Record<string, { valid: Record<string, unknown>[]; invalid: Record<string, unknown>[] }> = {
  api: {
    valid: [
      { url: 'https://example.com' },
      { url: 'https://example.com/items', method: 'post', headers: [{ key: 'X-A', value: 1 }], queryParams: [{ key: 'q', value: 'a' }] },
      { url: 'https://example.com', method: 'GET', timeoutMs: '5000', retries: 0 },
      { operation: { connectorId: 'con_1', operationId: 'listItems' }, parameters: { id: 3 } },
    ],
    invalid: [{}, { url: 'https://example.com', method: 'TRACE' }, { url: 'https://example.com', retries: 11 }, { operation: { connectorId: '' } }],
  },
  response: {
    valid: [{}, { status: 201, headers: { 'X-A': 'b' } }, { status: '204', headers: [{ key: 'X-A', value: 2 }] }],
    invalid: [{ status: 99 }, { status: 'ok' }, { headers: 'none' }],
  },
};

/** What a data field may resolve to: every kind of JSON value, and reference texts as a config holds them. */
const VALUES: unknown[] = [
  'text',
  '',
  0,
  42.5,
  -1,
  true,
  false,
  null,
  [],
  [1, 'two', { three: null }],
  {},
  { nested: { list: [1, { deep: true }], text: 'x' }, status: 'not a status', url: 42 },
  '<start.input>',
  'a <start.input> in a text',
];

const withDataFields = Object.values(blockRegistry).filter((definition) => (definition.dataFields ?? []).length > 0);

const cases = withDataFields.flatMap((definition) =>
  (definition.dataFields ?? []).map((field) => ({ type: definition.type, field, definition, configs: CONFIGS[definition.type] })),
);

/** The outcome of a check as a user would see it: the parsed config, or each issue's path and message. */
function outcome(check: ReturnType<BlockDefinition['configSchema']['safeParse']>) {
  return check.success ? { data: check.data } : { issues: check.error.issues.map((issue) => [issue.path.join('.'), issue.message]) };
}

describe('block data fields', () => {
  it('has valid and invalid configs here for every block type that declares data fields, and for no other', () => {
    expect(withDataFields.map((definition) => definition.type).sort()).toEqual(Object.keys(CONFIGS).sort());
    for (const { valid, invalid } of Object.values(CONFIGS)) {
      expect(valid.length).toBeGreaterThan(0);
      expect(invalid.length).toBeGreaterThan(0);
    }
  });

  describe.each(cases)('$type.$field', ({ field, definition, configs }) => {
    const { valid, invalid } = configs!;
    const parse = (config: Record<string, unknown>) => definition.configSchema.safeParse(config);

    it('takes any JSON value in a valid config and passes it on as it is, the rest parsed as without it', () => {
      for (const base of valid) {
        const without = parse(base);
        expect(without.success, JSON.stringify(base)).toBe(true);
        const { [field]: _, ...rest } = without.data as Record<string, unknown>;
        for (const value of VALUES) {
          const parsed = parse({ ...base, [field]: value });
          expect(outcome(parsed), `${JSON.stringify(base)} with ${field} = ${JSON.stringify(value)}`).toEqual({ data: { ...rest, [field]: value } });
          expect((parsed.data as Record<string, unknown>)[field]).toBe(value);
        }
      }
    });

    it('leaves an invalid config invalid for the same reasons, whatever the field holds', () => {
      for (const base of invalid) {
        const without = outcome(parse(base));
        expect(without.issues, JSON.stringify(base)).toBeDefined();
        for (const value of VALUES) expect(outcome(parse({ ...base, [field]: value })), `${field} = ${JSON.stringify(value)}`).toEqual(without);
      }
    });

    it('gets from a deployed config, checked once with the field referenced, what checking each run in full gives', () => {
      for (const base of [...valid, ...invalid]) {
        const config = { ...base, [field]: { from: '<start.input>' } };
        const block = deepFreeze({ id: 'b', type: definition.type, name: 'B', position: { x: 0, y: 0 }, enabled: true, config });
        const compiled = compiledConfig(block, definition)!;
        for (const value of VALUES) {
          const resolved = { ...base, [field]: value };
          const fullCheck = outcome(parse(resolved));
          const schemaCheck = vi.spyOn(definition.configSchema, 'safeParse');
          try {
            expect(outcome(compiled.check(resolved)), `${JSON.stringify(base)} with ${field} = ${JSON.stringify(value)}`).toEqual(fullCheck);
            // A valid config is really checked once (so this compares the once-made check, not the schema with itself).
            if (valid.includes(base)) expect(schemaCheck).not.toHaveBeenCalled();
          } finally {
            schemaCheck.mockRestore();
          }
        }
      }
    });
  });
});
