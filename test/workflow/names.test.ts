import { describe, expect, it } from 'vitest';
import { RESERVED_REFERENCE_NAMES, buildNameIndex, normalizeBlockName, type WorkflowState } from '../../src/workflow/index.js';

function stateOf(...blocks: Array<{ id: string; type: string; name: string }>): WorkflowState {
  return {
    blocks: Object.fromEntries(
      blocks.map((b) => [b.id, { ...b, position: { x: 0, y: 0 }, enabled: true, config: {} }]),
    ),
    edges: [],
    loops: {},
    parallels: {},
  };
}

describe('normalizeBlockName', () => {
  it('lowercases and removes every kind of whitespace', () => {
    expect(normalizeBlockName('My Block')).toBe('myblock');
    expect(normalizeBlockName('  Fetch\tUser\nData ')).toBe('fetchuserdata');
    expect(normalizeBlockName('API-Call_2')).toBe('api-call_2');
  });
});

describe('buildNameIndex', () => {
  it('maps normalized names and ids to block ids', () => {
    const index = buildNameIndex(stateOf({ id: 'b1', type: 'api', name: 'Fetch User' }));
    expect(index.get('fetchuser')).toBe('b1');
    expect(index.get('b1')).toBe('b1');
  });

  it('aliases each trigger kind to its trigger block', () => {
    const index = buildNameIndex(
      stateOf(
        { id: 't1', type: 'api_trigger', name: 'Start' },
        { id: 't2', type: 'webhook_trigger', name: 'Hook' },
        { id: 't3', type: 'schedule_trigger', name: 'Nightly' },
        { id: 't4', type: 'chat_trigger', name: 'Talk' },
      ),
    );
    expect(index.get('api')).toBe('t1');
    expect(index.get('webhook')).toBe('t2');
    expect(index.get('schedule')).toBe('t3');
    expect(index.get('chat')).toBe('t4');
  });

  it('lets a block named like an alias keep the name', () => {
    const index = buildNameIndex(
      stateOf({ id: 't1', type: 'api_trigger', name: 'Start' }, { id: 'b2', type: 'api', name: 'API' }),
    );
    expect(index.get('api')).toBe('b2');
  });

  it('has no alias when the trigger is absent', () => {
    expect(buildNameIndex(stateOf({ id: 'b1', type: 'api', name: 'X' })).has('api')).toBe(false);
  });

  it('lists the reserved scope names', () => {
    expect([...RESERVED_REFERENCE_NAMES]).toEqual(['loop', 'parallel', 'variable']);
  });
});
