// What a harness sends, recorded with the run so a replay can tell a changed harness from a changed
// agent: the first request body `rig harness show` builds for each (harness, provider, model) (the
// same core preview, called in this process), with the parts that vary from machine to machine
// (the folder it was built in, today's date) masked.
// Later requests of a trial only add history, which the replay compares from the rollouts.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFirstRequest } from '../core/harness-preview.js';

export type Fingerprints = Record<string, unknown>;

export const fingerprintKey = (harness: string, provider: string, model: string): string => `${harness} | ${provider} | ${model}`;

/** Masks a folder path, dates and ids so two machines (or days, or threads) build equal requests. */
export function normalizeText(text: string, folder?: string): string {
  let out = text;
  if (folder) out = out.split(folder).join('<workspace>');
  return out
    .replace(/<current_date>[^<]*<\/current_date>/g, '<current_date>*</current_date>')
    .replace(/<timezone>[^<]*<\/timezone>/g, '<timezone>*</timezone>')
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, '<date>')
    // thread ids (prompt_cache_key, session ids in headers or bodies)
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>');
}

function normalizeValue(value: unknown, folder: string): unknown {
  if (typeof value === 'string') return normalizeText(value, folder);
  if (Array.isArray(value)) return value.map((entry) => normalizeValue(entry, folder));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeValue(v, folder)]));
  return value;
}

export interface FingerprintCell {
  harness: string;
  provider: string;
  model: string;
  /** The agents' `-c` overrides and profile: they can define the provider or shape the request. */
  config: string[];
  profile?: string;
}

async function firstRequest({ harness, provider, model, config, profile }: FingerprintCell, env: NodeJS.ProcessEnv): Promise<unknown> {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'rig-eval-fp-')));
  try {
    const shown = await buildFirstRequest(harness, { provider, model, config, ...(profile ? { profile } : {}) }, { env, cwd: folder });
    return normalizeValue(shown.body, folder);
  } catch (error) {
    throw new Error(`rig harness show ${harness} --provider ${provider} -m ${model} failed: ${(error as Error).message}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export async function takeFingerprints(cells: FingerprintCell[], env: NodeJS.ProcessEnv): Promise<Fingerprints> {
  const prints: Fingerprints = {};
  for (const cell of cells) {
    const key = fingerprintKey(cell.harness, cell.provider, cell.model);
    if (key in prints) continue;
    prints[key] = await firstRequest(cell, env);
  }
  return prints;
}

function clip(text: string, at: number): string {
  const start = Math.max(0, at - 30);
  return JSON.stringify(text.slice(start, start + 90));
}

/** How two first requests differ, in a line a person can act on; undefined when they are equal. */
export function describeRequestChange(before: unknown, after: unknown): string | undefined {
  const a = JSON.stringify(before);
  const b = JSON.stringify(after);
  if (a === b) return undefined;
  if (before && after && typeof before === 'object' && typeof after === 'object') {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    const changed = keys.filter((key) => JSON.stringify((before as Record<string, unknown>)[key]) !== JSON.stringify((after as Record<string, unknown>)[key]));
    const first = changed[0]!;
    const left = JSON.stringify((before as Record<string, unknown>)[first]) ?? 'undefined';
    const right = JSON.stringify((after as Record<string, unknown>)[first]) ?? 'undefined';
    let at = 0;
    while (at < left.length && left[at] === right[at]) at++;
    return `the first request's ${changed.map((key) => `\`${key}\``).join(', ')} changed (at ${first}[${at}]: was ${clip(left, at)}, now ${clip(right, at)})`;
  }
  return 'the first request changed';
}
