// How `rig sessions list` shows threads: a table for people, an array of objects for scripts.
import os from 'node:os';
import type { ThreadSummary as ThreadRow } from '../../core/catalog.js';

/** "3m ago", "5h ago", "2d ago", then the date. */
export function relativeTime(then: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours}h ago`;
  const days = Math.round(hours / 24);
  if (days < 14) return `${days}d ago`;
  return new Date(then).toISOString().slice(0, 10);
}

export function compactTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

function homeRelative(dir: string, home: string): string {
  if (home && (dir === home || dir.startsWith(home + '/'))) return `~${dir.slice(home.length)}`;
  return dir;
}

function clip(text: string, max: number): string {
  if (max <= 1) return text.slice(0, Math.max(0, max));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface TableOptions {
  now: number;
  /** Terminal width; the title column is clipped to fit. Undefined: no clipping beyond 80 chars. */
  width?: number;
  userHome?: string;
}

/**
 * Sub-agents' threads right under the thread that spawned them (when it is listed too), each with
 * its depth; every other thread keeps its place.
 */
export function nestChildren(rows: readonly ThreadRow[]): { row: ThreadRow; depth: number }[] {
  const listed = new Set(rows.map((row) => row.id));
  const children = new Map<string, ThreadRow[]>();
  for (const row of rows) {
    if (row.parentThreadId && listed.has(row.parentThreadId)) {
      const siblings = children.get(row.parentThreadId) ?? [];
      siblings.push(row);
      children.set(row.parentThreadId, siblings);
    }
  }
  const out: { row: ThreadRow; depth: number }[] = [];
  const placed = new Set<string>();
  const place = (row: ThreadRow, depth: number) => {
    if (placed.has(row.id)) return;
    placed.add(row.id);
    out.push({ row, depth });
    for (const child of children.get(row.id) ?? []) place(child, depth + 1);
  };
  for (const row of rows) if (!(row.parentThreadId && listed.has(row.parentThreadId))) place(row, 0);
  // A cycle of parents (a damaged index) would leave rows out: list them as they come.
  for (const row of rows) place(row, 0);
  return out;
}

/** One header line and one line per thread; the title goes last so it can take what is left. */
export function formatThreadTable(unordered: readonly ThreadRow[], options: TableOptions): string {
  const userHome = options.userHome ?? os.homedir();
  const nested = nestChildren(unordered);
  const rows = nested.map((entry) => entry.row);
  const cells = nested.map(({ row, depth }) => [
    depth > 0 ? `${'  '.repeat(depth - 1)}└ ${row.id}` : row.id,
    relativeTime(row.updatedAt, options.now) + (row.archived ? ' (archived)' : ''),
    `${row.model ?? '?'}/${row.harness ?? '?'}`,
    compactTokens(row.usage.input_tokens + row.usage.output_tokens),
    homeRelative(row.cwd, userHome) || '?',
  ]);
  const header = ['ID', 'UPDATED', 'MODEL/HARNESS', 'TOKENS', 'CWD'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const pad = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ');
  const used = widths.reduce((a, b) => a + b + 2, 0);
  const titleWidth = options.width !== undefined ? Math.max(10, options.width - used) : 80;
  const lines = [`${pad(header)}  TITLE`];
  rows.forEach((row, i) => {
    const agent = row.agentPath ? `${row.agentPath}${row.agentRole ? ` (${row.agentRole})` : ''}: ` : '';
    lines.push(`${pad(cells[i]!)}  ${clip(agent + (row.title || '(untitled)'), titleWidth)}`);
  });
  return lines.join('\n') + '\n';
}
