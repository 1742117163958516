// Model prices for cost accounting: the table in pricing.json, overridden per model by SLUICE_MODEL_PRICING.
import { parseModelPricingOverride, type ModelPrice } from '../model-pricing-override.js';
import pricingFile from './pricing.json' with { type: 'json' };
import type { TokenCounts } from './types.js';

export interface ModelCost {
  input: number;
  output: number;
  total: number;
}

export type PricedCost = { known: true; cost: ModelCost; pricedAs: string } | { known: false; cost: ModelCost };

const BUILT_IN: Record<string, ModelPrice> = pricingFile.models;
const PER_TOKENS = 1_000_000;

// The override text comes from configuration and never changes while the process runs; parse it once.
let cachedOverride: { text: string; prices: Record<string, ModelPrice> } | undefined;

function pricesWith(overrideText: string | undefined): Record<string, ModelPrice> {
  if (!overrideText) return BUILT_IN;
  if (cachedOverride?.text !== overrideText) {
    // Configuration validated it at start-up, so this only throws for a caller that skipped loadConfig.
    cachedOverride = { text: overrideText, prices: { ...BUILT_IN, ...parseModelPricingOverride(overrideText) } };
  }
  return cachedOverride.prices;
}

/** `openai/gpt-4o-2024-08-06` → `gpt-4o`: providers and routers decorate the names the table lists. */
function baseName(model: string): string {
  const withoutVendor = model.slice(model.lastIndexOf('/') + 1);
  return withoutVendor.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, '').replace(/-latest$/, '');
}

function findPrice(model: string, prices: Record<string, ModelPrice>): { name: string; price: ModelPrice } | undefined {
  const lowered = model.trim().toLowerCase();
  for (const candidate of [model, lowered, baseName(lowered)]) {
    const price = prices[candidate];
    if (price) return { name: candidate, price };
  }
  // Longest listed prefix at a `-` boundary: `gpt-4o-mini-search-preview` is priced as gpt-4o-mini, not gpt-4o.
  const base = baseName(lowered);
  let best: string | undefined;
  for (const name of Object.keys(prices)) {
    if (base.startsWith(`${name}-`) && (!best || name.length > best.length)) best = name;
  }
  return best ? { name: best, price: prices[best]! } : undefined;
}

const round = (usd: number) => Math.round(usd * 1e9) / 1e9;

export function priceUsage(models: string[], tokens: TokenCounts, overrideText?: string): PricedCost {
  const prices = pricesWith(overrideText);
  for (const model of models) {
    const found = findPrice(model, prices);
    if (!found) continue;
    const input = round((tokens.prompt * found.price.input) / PER_TOKENS);
    const output = round((tokens.completion * found.price.output) / PER_TOKENS);
    return { known: true, cost: { input, output, total: round(input + output) }, pricedAs: found.name };
  }
  return { known: false, cost: { input: 0, output: 0, total: 0 } };
}
