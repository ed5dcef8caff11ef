// `rig harness list [--json]`: the profiles the engine finds (core/harness-catalog.ts), as a table
// or JSON. Broken files are listed with the reason, never fatal.
import { listHarnesses, profileSearch, type HarnessListEntry } from '../../core/harness-catalog.js';
import { defaultHarnessIo, type HarnessIo } from './io.js';

export type { HarnessListEntry } from '../../core/harness-catalog.js';

function describeTools(tools: NonNullable<HarnessListEntry['tools']>): string {
  if (tools.length === 0) return 'no tools';
  return tools.map((tool) => (tool.exposure === 'advertised' ? tool.name : `${tool.name} (${tool.exposure})`)).join(', ');
}

export function formatHarnessList(entries: HarnessListEntry[]): string {
  const width = Math.max(...entries.map((entry) => entry.id.length), 2);
  const lines: string[] = [];
  for (const entry of entries) {
    const head = `${entry.id.padEnd(width)}  ${entry.origin.padEnd(7)}`;
    if (entry.error) {
      lines.push(`${head}  BROKEN: ${entry.error}`);
      continue;
    }
    lines.push(`${head}  ${entry.protocol ?? 'tools'}  wires: ${(entry.wires ?? []).join(', ')}`);
    if (entry.description) lines.push(`${' '.repeat(width + 2)}${entry.description}`);
    lines.push(`${' '.repeat(width + 2)}tools: ${describeTools(entry.tools ?? [])}`);
    const omitted = entry.omitted ?? [];
    lines.push(`${' '.repeat(width + 2)}unbound: ${entry.unbound ?? 0}; omitted: ${omitted.length === 0 ? 'none' : `${omitted.length} (${omitted.map((o) => o.name).join(', ')})`}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function runHarnessList(flags: { json?: boolean }, io: HarnessIo = defaultHarnessIo()): Promise<number> {
  const entries = listHarnesses(profileSearch(io));
  io.stdout(flags.json ? `${JSON.stringify(entries, null, 2)}\n` : formatHarnessList(entries));
  // Listing succeeds even with broken files; they are shown, not fatal.
  return 0;
}
