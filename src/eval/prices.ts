// Cost of a trial from the price table in config ([eval.prices."MODEL"], USD per million tokens).
import type { TokenCounts } from './results.js';

export interface Price {
  input: number;
  cached_input?: number;
  output: number;
}

export type PriceTable = Record<string, Price>;

/** Looks the model up by its exact name, then by the name after a provider prefix ("openai/gpt-x"). */
export function priceOf(table: PriceTable, model: string): Price | undefined {
  return table[model] ?? table[model.slice(model.lastIndexOf('/') + 1)];
}

export function costUsd(table: PriceTable, model: string, tokens: TokenCounts): number | null {
  const price = priceOf(table, model);
  if (!price) return null;
  const cached = Math.min(tokens.cached_input, tokens.input);
  const usd = ((tokens.input - cached) * price.input + cached * (price.cached_input ?? price.input) + tokens.output * price.output) / 1_000_000;
  return Math.round(usd * 1e8) / 1e8;
}
