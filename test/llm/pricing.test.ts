// Cost accounting from the price table, its override, and how model names are matched.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { priceUsage } from '../../src/llm/index.js';

const tokens = (prompt: number, completion: number) => ({ prompt, completion, total: prompt + completion });

describe('priceUsage', () => {
  it('prices prompt and completion tokens separately, in USD per 1M tokens', () => {
    expect(priceUsage(['gpt-4o'], tokens(1_000_000, 100_000))).toEqual({
      known: true,
      pricedAs: 'gpt-4o',
      cost: { input: 2.5, output: 1, total: 3.5 },
    });
  });

  it('matches dated, prefixed and suffixed names to the listed model', () => {
    expect(priceUsage(['gpt-4o-2024-08-06'], tokens(1, 1))).toMatchObject({ pricedAs: 'gpt-4o' });
    expect(priceUsage(['openai/gpt-4o-mini'], tokens(1, 1))).toMatchObject({ pricedAs: 'gpt-4o-mini' });
    expect(priceUsage(['claude-3-5-sonnet-20241022'], tokens(1, 1))).toMatchObject({ pricedAs: 'claude-3-5-sonnet' });
    expect(priceUsage(['claude-3-5-haiku-latest'], tokens(1, 1))).toMatchObject({ pricedAs: 'claude-3-5-haiku' });
    // The longest listed prefix wins: gpt-4o-mini, not gpt-4o.
    expect(priceUsage(['gpt-4o-mini-search-preview'], tokens(1, 1))).toMatchObject({ pricedAs: 'gpt-4o-mini' });
    // gpt-4.1 is not priced as gpt-4.
    expect(priceUsage(['gpt-4.1'], tokens(1, 1))).toMatchObject({ pricedAs: 'gpt-4.1' });
  });

  it("prices Anthropic's current models at their own rates, not as an older model their name begins with", () => {
    // Before they were listed, the longest-prefix rule priced claude-opus-4-6 as claude-opus-4 ($15/$75 per 1M tokens).
    expect(priceUsage(['claude-opus-4-6'], tokens(1_000_000, 1_000_000))).toMatchObject({ pricedAs: 'claude-opus-4-6', cost: { total: 30 } });
    expect(priceUsage(['claude-sonnet-5-5'], tokens(1_000_000, 1_000_000))).toMatchObject({ pricedAs: 'claude-sonnet-5-5', cost: { total: 12 } });
    // claude-sonnet-5 is a prefix of claude-sonnet-5-5; each keeps its own row.
    expect(priceUsage(['claude-opus-5-5'], tokens(1_000_000, 0))).toMatchObject({ pricedAs: 'claude-opus-5-5', cost: { total: 4 } });
    expect(priceUsage(['claude-opus-5'], tokens(1_000_000, 0))).toMatchObject({ pricedAs: 'claude-opus-5', cost: { total: 5 } });
  });

  it("prices OpenAI's current models, which no listed name is a prefix of at a `-`", () => {
    // gpt-5.5 does not begin `gpt-5-`: before it was listed it cost nothing, as an unknown model.
    expect(priceUsage(['gpt-5.5'], tokens(1_000_000, 1_000_000))).toMatchObject({ pricedAs: 'gpt-5.5', cost: { total: 35 } });
    expect(priceUsage(['gpt-5.4-mini-2026-03-17'], tokens(1_000_000, 1_000_000))).toMatchObject({ pricedAs: 'gpt-5.4-mini', cost: { total: 5.25 } });
    expect(priceUsage(['gpt-5.4'], tokens(1_000_000, 0))).toMatchObject({ pricedAs: 'gpt-5.4', cost: { total: 2.5 } });
  });

  it('costs nothing for a model it does not know, and says so', () => {
    expect(priceUsage(['llama3.1:8b'], tokens(1000, 1000))).toEqual({ known: false, cost: { input: 0, output: 0, total: 0 } });
  });

  it('falls back to the name the provider reported', () => {
    expect(priceUsage(['my-alias', 'gpt-4o-mini-2024-07-18'], tokens(1_000_000, 0))).toMatchObject({
      pricedAs: 'gpt-4o-mini',
      cost: { input: 0.15, output: 0, total: 0.15 },
    });
  });

  it('lets SLUICE_MODEL_PRICING add models and replace listed prices', () => {
    const override = '{"gpt-4o":{"input":1,"output":1},"local-llm":{"input":0.5,"output":0.5}}';
    expect(priceUsage(['gpt-4o'], tokens(1_000_000, 0), override).cost.total).toBe(1);
    expect(priceUsage(['local-llm'], tokens(2_000_000, 0), override).cost.total).toBe(1);
    expect(priceUsage(['gpt-4o-mini'], tokens(1_000_000, 0), override).cost.total).toBe(0.15);
  });
});

describe('SLUICE_MODEL_PRICING at start-up', () => {
  it('is validated by loadConfig, naming the variable', () => {
    expect(() => loadConfig({ SLUICE_MODEL_PRICING: 'not json' })).toThrow(ConfigError);
    expect(() => loadConfig({ SLUICE_MODEL_PRICING: '{"m":{"input":-1,"output":1}}' })).toThrow(/SLUICE_MODEL_PRICING .*m\.input/);
    const config = loadConfig({ SLUICE_MODEL_PRICING: '{"m":{"input":1,"output":2}}' });
    expect(config.providerEnv.SLUICE_MODEL_PRICING).toBe('{"m":{"input":1,"output":2}}');
  });
});
