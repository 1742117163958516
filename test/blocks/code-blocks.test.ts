// Function and condition blocks against the real sandbox: references travel as data, never as source text.
import { describe, expect, it } from 'vitest';
import { conditionBlock, conditionConfigSchema, NO_EDGE_HANDLE } from '../../src/blocks/condition.js';
import { functionBlock } from '../../src/blocks/function.js';
import { fakeContext } from './context.js';

describe('function', () => {
  it('returns the result and captured stdout', async () => {
    const { ctx } = fakeContext(functionBlock, { code: 'console.log("hi"); return 1 + 1' });
    const { output } = await functionBlock.run(ctx);
    expect(output).toMatchObject({ result: 2 });
    expect(output.stdout).toContain('hi');
    expect(output.error).toBeUndefined();
  });

  it('passes referenced values and env values as data', async () => {
    const { ctx } = fakeContext(
      functionBlock,
      { code: 'return [<api.items>.length, <api.name>, {{KEY}}]' },
      { references: { 'api.items': [1, 2, 3], 'api.name': "'); throw 1; ('" }, env: { KEY: 'k' } },
    );
    expect((await functionBlock.run(ctx)).output).toMatchObject({ result: [3, "'); throw 1; ('", 'k'] });
  });

  it('reports a thrown error in output.error', async () => {
    const { ctx } = fakeContext(functionBlock, { code: 'throw new Error("bad input")' });
    const { output } = await functionBlock.run(ctx);
    expect(output.result).toBeNull();
    expect(String(output.error)).toContain('bad input');
  });
});

describe('condition', () => {
  const conditions = [
    { id: 'hot', title: 'if', expression: '<weather.temp> > 25' },
    { id: 'mild', title: 'else if', expression: '<weather.temp> > 10' },
    { id: 'cold', title: 'else', expression: '' },
  ];

  it.each([
    { temp: 30, selected: 'hot' },
    { temp: 15, selected: 'mild' },
    { temp: 0, selected: 'cold' },
  ])('temp $temp selects $selected', async ({ temp, selected }) => {
    const { ctx } = fakeContext(conditionBlock, { conditions }, { references: { 'weather.temp': temp } });
    expect(await conditionBlock.run(ctx)).toEqual({
      output: { selectedOption: selected, conditionResult: true },
      sourceHandle: `condition-${selected}`,
    });
  });

  it('selects nothing when no branch matches and there is no else', async () => {
    const { ctx } = fakeContext(conditionBlock, { conditions: conditions.slice(0, 2) }, { references: { 'weather.temp': 0 } });
    expect(await conditionBlock.run(ctx)).toEqual({
      output: { selectedOption: null, conditionResult: false },
      sourceHandle: NO_EDGE_HANDLE,
    });
  });

  it('compares referenced strings as data', async () => {
    const { ctx } = fakeContext(
      conditionBlock,
      { conditions: [{ id: 'match', title: 'If', expression: '<a.text> === "x\\" || true || \\""' }] },
      { references: { 'a.text': 'y' } },
    );
    expect((await conditionBlock.run(ctx)).output).toEqual({ selectedOption: null, conditionResult: false });
  });

  it('fails the block when an expression cannot be evaluated', async () => {
    const { ctx } = fakeContext(conditionBlock, { conditions: [{ id: 'c1', title: 'if', expression: 'this is not js' }] });
    const { output } = await conditionBlock.run(ctx);
    expect(String(output.error)).toMatch(/^Condition "if" \(c1\) failed: /);
  });

  it.each([
    { conditions: [] },
    { conditions: [{ id: 'a', title: 'if', expression: '1' }, { id: 'a', title: 'else', expression: '' }] },
    { conditions: [{ id: 'a', title: 'when', expression: '1' }] },
  ])('rejects %j', (config) => {
    expect(conditionConfigSchema.safeParse(config).success).toBe(false);
  });
});
