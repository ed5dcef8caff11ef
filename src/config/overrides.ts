// `-c key.path=value` overrides (Codex syntax) and the table helpers layers are merged with.
import { parse as parseToml } from 'smol-toml';
import { ConfigError } from './errors.js';

export interface ConfigOverride {
  path: string[];
  value: unknown;
}

/** Keys Codex moved; an override of the old name lands on the new one. */
const OVERRIDE_ALIASES: Record<string, string[]> = {
  use_legacy_landlock: ['features', 'use_legacy_landlock'],
};

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Splits `key=value` at the first `=`. The value is read as a TOML value (`42`, `true`, `"o3"`,
 * `[1, 2]`, `{a = 1}`); if it is not valid TOML it is taken as a plain string, minus surrounding quotes.
 */
export function parseOverride(raw: string): ConfigOverride {
  const eq = raw.indexOf('=');
  if (eq < 0) throw new ConfigError(`Invalid override (missing '='): ${raw}`);
  const key = raw.slice(0, eq).trim();
  const valueText = raw.slice(eq + 1).trim();
  if (key === '') throw new ConfigError(`Empty key in override: ${raw}`);
  const path = OVERRIDE_ALIASES[key] ?? key.split('.');
  if (path.some((seg) => seg === '')) throw new ConfigError(`Empty key in override: ${raw}`);
  if (path.some((seg) => UNSAFE_KEYS.has(seg))) throw new ConfigError(`Invalid key in override: ${raw}`);
  return { path: [...path], value: parseOverrideValue(valueText) };
}

function parseOverrideValue(text: string): unknown {
  try {
    // A sentinel key makes any single TOML value a one-line document.
    return parseToml(`__value__ = ${text}`, { unsafeKeyBehaviour: 'drop' })['__value__'];
  } catch {
    return stripQuotes(text);
  }
}

/** As Codex: quote characters are trimmed from both ends, paired or not. */
function stripQuotes(text: string): string {
  return text.replace(/^["']+|["']+$/g, '');
}

export type Table = Record<string, unknown>;

export function isTable(value: unknown): value is Table {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === null || proto === Object.prototype;
}

/** A one-key-path table: `['a','b'], 1` becomes `{a: {b: 1}}`. */
export function tableAtPath(path: readonly string[], value: unknown): Table {
  let out: unknown = value;
  for (let i = path.length - 1; i >= 0; i--) out = { [path[i] as string]: out };
  return out as Table;
}

/** Recursive table merge: tables merge key by key, anything else in `top` replaces what is below. */
export function mergeTables(base: Table, top: Table): Table {
  const out: Table = { ...base };
  for (const [key, value] of Object.entries(top)) {
    const below = out[key];
    out[key] = isTable(below) && isTable(value) ? mergeTables(below, value) : value;
  }
  return out;
}

export function getAtPath(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}
