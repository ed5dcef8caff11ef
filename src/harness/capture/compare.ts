// Field-by-field differences between two request summaries (summary.ts): what `rig harness diff`
// prints and what the fidelity test holds against each profile's accepted differences.
import { isDeepStrictEqual } from 'node:util';
import type { RequestSummary } from './summary.js';

export interface SummaryDifference {
  /** Where: `fields`, `settings.max_tokens`, `present.prompt_cache_key`, `messages[1]`, `tools.read.parameters`, ... */
  at: string;
  ours: unknown;
  theirs: unknown;
}

function push(out: SummaryDifference[], at: string, ours: unknown, theirs: unknown): void {
  if (!isDeepStrictEqual(ours, theirs)) out.push({ at, ours, theirs });
}

const ABSENT = '(absent)';

/** Every difference, `ours` (rig's request) against `theirs` (the original's). */
export function compareSummaries(ours: RequestSummary, theirs: RequestSummary): SummaryDifference[] {
  const out: SummaryDifference[] = [];
  push(out, 'fields', ours.fields, theirs.fields);
  for (const key of [...new Set([...Object.keys(ours.settings), ...Object.keys(theirs.settings)])].sort()) {
    push(out, `settings.${key}`, ours.settings[key] ?? ABSENT, theirs.settings[key] ?? ABSENT);
  }
  for (const key of [...new Set([...ours.present, ...theirs.present])].sort()) {
    push(out, `present.${key}`, ours.present.includes(key), theirs.present.includes(key));
  }
  push(out, 'system_placement', ours.system_placement, theirs.system_placement);
  push(out, 'message_roles', ours.message_roles, theirs.message_roles);
  const count = Math.max(ours.messages.length, theirs.messages.length);
  for (let index = 0; index < count; index++) push(out, `messages[${index}]`, ours.messages[index] ?? ABSENT, theirs.messages[index] ?? ABSENT);
  push(out, 'cache_control', ours.cache_control, theirs.cache_control);
  push(out, 'tools.names', ours.tools.map((tool) => tool.name), theirs.tools.map((tool) => tool.name));
  const theirsByName = new Map(theirs.tools.map((tool) => [tool.name, tool]));
  for (const tool of ours.tools) {
    const other = theirsByName.get(tool.name);
    if (!other) continue;
    push(out, `tools.${tool.name}.kind`, tool.kind, other.kind);
    push(out, `tools.${tool.name}.parameters`, tool.parameters, other.parameters);
    push(out, `tools.${tool.name}.extras`, tool.extras, other.extras);
  }
  return out;
}
