// The names MCP tools are offered under, per harness convention. Pure: the same tools give the
// same names in every process, so a resumed thread's history still matches its tool list.
//
//   codex       mcp__<server>__<tool>, each part sanitized to [A-Za-z0-9_], at most 64 bytes; a
//               hash suffix (`_` + 12 hex of SHA-1 over the raw identity) on overflow or when two
//               raw names sanitize to the same one (codex-mcp/src/mcp_tool_names.rs)
//   claude-code mcp__<server>__<tool>, each part with [^A-Za-z0-9_-] -> `_` (normalizeNameForMCP)
//   qwen-code   mcp__<server>__<tool>; kept when it matches ^[A-Za-z][A-Za-z0-9_-]*$ within 63
//               chars, else sanitized, cut and given `_` + a 7-char FNV-1a base-36 suffix
//               (normalizeToolNameForProvider)
//   opencode    <server>_<tool>, each part with [^A-Za-z0-9_-] -> `_`
//
// Claude Code and opencode neither cap nor deduplicate: an overlong name is refused by the model
// API, and opencode silently drops one of two colliding tools. rig keeps their convention and only
// where the original would fail adds Codex's hash suffix, so every offered name is unique and
// valid on every wire (OpenAI's limit is 64 characters).
import { createHash } from 'node:crypto';

export type McpNamingConvention = 'codex' | 'claude-code' | 'qwen-code' | 'opencode';

/** The longest tool name every wire accepts. */
export const MAX_TOOL_NAME_LENGTH = 64;
const HASH_LEN = 12;

export interface McpToolRef {
  server: string;
  tool: string;
}

export interface NamedMcpTool extends McpToolRef {
  /** The name the model sees and calls. */
  name: string;
}

/** Which convention a harness profile uses; harnesses without their own use Codex's. */
export function namingConventionForHarness(harnessId: string): McpNamingConvention {
  if (harnessId === 'claude-code' || harnessId.startsWith('claude-code-')) return 'claude-code';
  if (harnessId === 'qwen-code') return 'qwen-code';
  if (harnessId === 'opencode') return 'opencode';
  return 'codex';
}

/**
 * Model-visible names for `tools`, unique and at most 64 characters. The result is in a stable
 * order (by server, then tool) whatever the input order. Duplicate refs are dropped.
 */
export function nameMcpTools(tools: readonly McpToolRef[], convention: McpNamingConvention): NamedMcpTool[] {
  const unique = dedupe(tools);
  switch (convention) {
    case 'codex':
      return codexNames(unique);
    case 'qwen-code':
      return disambiguate(unique.map((ref) => ({ ...ref, name: qwenName(`mcp__${ref.server}__${ref.tool}`) })));
    case 'claude-code':
      return disambiguate(unique.map((ref) => ({ ...ref, name: `mcp__${replaceOutside(ref.server)}__${replaceOutside(ref.tool)}` })));
    case 'opencode':
      return disambiguate(unique.map((ref) => ({ ...ref, name: `${replaceOutside(ref.server)}_${replaceOutside(ref.tool)}` })));
  }
}

function dedupe(tools: readonly McpToolRef[]): McpToolRef[] {
  const seen = new Set<string>();
  const out: McpToolRef[] = [];
  for (const ref of tools) {
    const key = identity(ref);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ server: ref.server, tool: ref.tool });
  }
  return out.sort((a, b) => compare(identity(a), identity(b)));
}

function identity(ref: McpToolRef): string {
  return `${ref.server}\u0000${ref.tool}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** [^A-Za-z0-9_-] -> `_`, per UTF-16 code unit as Claude Code, Qwen Code and opencode do. */
function replaceOutside(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** Codex's sanitizer: anything but [A-Za-z0-9_] -> `_`, per character; empty -> `_`. */
function codexSanitize(text: string): string {
  let out = '';
  for (const ch of text) out += /^[A-Za-z0-9_]$/.test(ch) ? ch : '_';
  return out === '' ? '_' : out;
}

function sha1Suffix(raw: string): string {
  return `_${createHash('sha1').update(raw, 'utf8').digest('hex').slice(0, HASH_LEN)}`;
}

interface CodexCandidate extends McpToolRef {
  namespace: string;
  callable: string;
  rawNamespace: string;
  rawTool: string;
}

function codexNames(tools: readonly McpToolRef[]): NamedMcpTool[] {
  const candidates: CodexCandidate[] = tools.map((ref) => ({
    ...ref,
    namespace: codexSanitize(`mcp__${ref.server}__`),
    callable: codexSanitize(ref.tool),
    rawNamespace: ref.server,
    rawTool: identity(ref),
  }));
  // Two servers whose names sanitize alike get a hash inside their namespace: mcp__a_b_<hash>__.
  const serversByNamespace = groupBy(candidates, (c) => c.namespace, (c) => c.rawNamespace);
  for (const c of candidates) {
    if ((serversByNamespace.get(c.namespace)?.size ?? 0) > 1) c.namespace = `${c.namespace.slice(0, -2)}${sha1Suffix(c.rawNamespace)}__`;
  }
  // Two tools of one namespace whose names sanitize alike get a hash after the tool name.
  const toolsByName = groupBy(candidates, (c) => `${c.namespace}\u0000${c.callable}`, (c) => c.rawTool);
  for (const c of candidates) {
    if ((toolsByName.get(`${c.namespace}\u0000${c.callable}`)?.size ?? 0) > 1) c.callable = `${c.callable}${sha1Suffix(c.rawTool)}`;
  }
  const used = new Set<string>();
  return candidates.map((c) => ({ server: c.server, tool: c.tool, name: fitCodex(c, used) }));
}

/** The name as is if it fits and is free; else hashed to fit, retrying with a counter on a clash. */
function fitCodex(c: CodexCandidate, used: Set<string>): string {
  const plain = c.namespace + c.callable;
  if (plain.length <= MAX_TOOL_NAME_LENGTH && !used.has(plain)) {
    used.add(plain);
    return plain;
  }
  for (let attempt = 0; ; attempt++) {
    const suffix = sha1Suffix(attempt === 0 ? c.rawTool : `${c.rawTool}\u0000${attempt}`);
    const room = MAX_TOOL_NAME_LENGTH - c.namespace.length;
    const name =
      room >= suffix.length
        ? c.namespace + c.callable.slice(0, room - suffix.length) + suffix
        : c.namespace.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
    if (!used.has(name)) {
      used.add(name);
      return name;
    }
  }
}

const QWEN_MAX = 63;

/** Qwen Code's normalizeToolNameForProvider. */
function qwenName(name: string): string {
  if (name.length <= QWEN_MAX && /^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) return name;
  const sanitized = replaceOutside(name);
  const normalized = /^[A-Za-z]/.test(sanitized) ? sanitized : `tool_${sanitized}`;
  const suffix = `_${fnv1aBase36(name)}`;
  return normalized.slice(0, QWEN_MAX - suffix.length) + suffix;
}

function fnv1aBase36(text: string): string {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0).toString(36).padStart(7, '0');
}

/**
 * rig's addition for conventions without their own: a name that is taken or too long gets Codex's
 * hash suffix (over the raw identity), cut to fit.
 */
function disambiguate(named: readonly NamedMcpTool[]): NamedMcpTool[] {
  const counts = new Map<string, number>();
  for (const t of named) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
  const used = new Set(named.filter((t) => counts.get(t.name) === 1 && t.name.length <= MAX_TOOL_NAME_LENGTH).map((t) => t.name));
  return named.map((t) => {
    if (counts.get(t.name) === 1 && t.name.length <= MAX_TOOL_NAME_LENGTH) return t;
    for (let attempt = 0; ; attempt++) {
      const raw = identity(t);
      const suffix = sha1Suffix(attempt === 0 ? raw : `${raw}\u0000${attempt}`);
      const name = t.name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
      if (!used.has(name)) {
        used.add(name);
        return { ...t, name };
      }
    }
  });
}

function groupBy<T>(items: readonly T[], key: (item: T) => string, member: (item: T) => string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const item of items) {
    const k = key(item);
    let set = out.get(k);
    if (!set) out.set(k, (set = new Set()));
    set.add(member(item));
  }
  return out;
}
