// Reading a git config file far enough to tell whether it makes read-only git commands run
// something else: the keys git runs as a command (fsmonitor hooks, pagers, diff and filter
// drivers, hooks paths, gpg programs) and includes of other files. Anything unreadable counts as
// running something.

export interface ConfigEntry {
  /** Section name, lower case. */
  section: string;
  /** Subsection as written (case-sensitive), or undefined. */
  subsection: string | undefined;
  /** Variable name, lower case. */
  key: string;
  /** Value with quotes and escapes resolved; null for a bare key (boolean true). */
  value: string | null;
}

/** The entries of a config file, or null when a line cannot be read. */
export function parseGitConfig(text: string): ConfigEntry[] | null {
  const entries: ConfigEntry[] = [];
  let section: string | undefined;
  let subsection: string | undefined;
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[')) {
      const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
      if (!header) return null;
      const name = header[1]!;
      const dot = name.indexOf('.');
      // [section.subsection] is the old spelling of [section "subsection"].
      section = (dot < 0 ? name : name.slice(0, dot)).toLowerCase();
      subsection = header[2] !== undefined ? header[2].replace(/\\(.)/g, '$1') : dot < 0 ? undefined : name.slice(dot + 1).toLowerCase();
      line = header[3]!.trim();
      if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    }
    if (section === undefined) return null;
    const assignment = /^([A-Za-z][A-Za-z0-9-]*)\s*(=\s*(.*))?$/.exec(line);
    if (!assignment) return null;
    const key = assignment[1]!.toLowerCase();
    if (assignment[2] === undefined) {
      entries.push({ section, subsection, key, value: null });
      continue;
    }
    let raw = assignment[3]!;
    // A value continues on the next line after an unescaped trailing backslash.
    while (/(^|[^\\])(\\\\)*\\$/.test(raw) && i + 1 < lines.length) raw = raw.slice(0, -1) + lines[++i]!;
    const value = unquoteValue(raw);
    if (value === null) return null;
    entries.push({ section, subsection, key, value });
  }
  return entries;
}

function unquoteValue(raw: string): string | null {
  let value = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '"') {
      quoted = !quoted;
    } else if (ch === '\\') {
      const next = raw[++i];
      if (next === undefined) return null;
      value += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '\b' : next;
    } else if (!quoted && (ch === '#' || ch === ';')) {
      break;
    } else {
      value += ch;
    }
  }
  return quoted ? null : value.trim();
}

const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;
const CORE_COMMANDS = new Set(['pager', 'editor', 'sshcommand', 'askpass', 'hookspath', 'gitproxy', 'alternaterefscommand']);

/** Whether an entry makes git run a program (or read another file) on behalf of a read-only command. */
export function runsSomething(entry: ConfigEntry): boolean {
  const { section, subsection, key, value } = entry;
  switch (section) {
    case 'core':
      if (key === 'fsmonitor') return value !== null && !BOOLEAN.test(value);
      return CORE_COMMANDS.has(key);
    case 'diff':
      return (subsection === undefined && key === 'external') || (subsection !== undefined && (key === 'command' || key === 'textconv'));
    case 'merge':
      return subsection !== undefined && key === 'driver';
    case 'filter':
      if (subsection === undefined || !['clean', 'smudge', 'process'].includes(key)) return false;
      // Git LFS's own filter is what nearly every LFS repository has; it reads and writes only objects.
      return !(subsection === 'lfs' && value !== null && /^git-lfs [A-Za-z0-9 %-]*$/.test(value));
    case 'pager':
      return true;
    case 'gpg':
      return key === 'program';
    case 'include':
    case 'includeif':
      return key === 'path';
    default:
      return false;
  }
}

/** The repository's object hash length in bytes (sha1 20, sha256 32). */
export function objectHashBytes(entries: readonly ConfigEntry[]): number {
  const format = entries.find((entry) => entry.section === 'extensions' && entry.key === 'objectformat');
  return format?.value?.toLowerCase() === 'sha256' ? 32 : 20;
}
