// SKILL.md frontmatter: the YAML block between `---` lines at the top of the file. Most skills use
// plain `key: value` lines, which a small reader handles without loading a YAML library (yaml costs
// ~40 ms to load here, and skills are read at every session start); anything it is not sure of
// (block scalars, nested maps, flow collections, anchors) goes to the real parser.

export interface SplitSkillFile {
  /** The frontmatter text (without the `---` lines). */
  yaml: string;
  /** 1-based line of the first frontmatter line. */
  firstLine: number;
  body: string;
}

export function splitFrontmatter(text: string): SplitSkillFile | undefined {
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = src.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return undefined;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.trim() === '---') {
      return { yaml: lines.slice(1, i).join('\n'), firstLine: 2, body: lines.slice(i + 1).join('\n') };
    }
  }
  return undefined;
}

const PLAIN_KEY = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*:(?:\s+(.*))?$/;
/** A plain scalar the small reader takes as is: no YAML indicator first, no ` #` or `: ` inside. */
const SAFE_PLAIN = /^[^\s\-?:,[\]{}#&*!|>'"%@`][^]*$/;

/** The frontmatter as a table, or undefined when only the full parser can read it. */
export function parseSimpleYaml(yaml: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const raw of yaml.split('\n')) {
    const line = raw.replace(/\s+$/, '');
    if (line === '' || /^\s*#/.test(line)) continue;
    if (/^\s/.test(line)) return undefined;
    const m = PLAIN_KEY.exec(line);
    if (!m) return undefined;
    const key = m[1]!;
    const value = m[2] ?? '';
    if (Object.hasOwn(out, key)) return undefined;
    if (value === '') return undefined;
    if (value.startsWith('"')) {
      if (!/^"(?:[^"\\]|\\.)*"$/.test(value)) return undefined;
      try {
        out[key] = JSON.parse(value) as string;
      } catch {
        return undefined;
      }
      continue;
    }
    if (value.startsWith("'")) {
      if (!/^'(?:[^']|'')*'$/.test(value)) return undefined;
      out[key] = value.slice(1, -1).replace(/''/g, "'");
      continue;
    }
    if (!SAFE_PLAIN.test(value) || value.includes(' #') || value.includes(': ')) return undefined;
    // Words YAML would read as something other than a string.
    if (/^(true|false|yes|no|on|off|null|~|[-+]?(\d[\d_]*)?(\.\d+)?([eE][-+]?\d+)?)$/i.test(value)) return undefined;
    out[key] = value;
  }
  return out;
}

/** Parses the frontmatter; throws with the YAML library's message when it is not valid YAML. */
export async function parseFrontmatter(yaml: string): Promise<unknown> {
  const simple = parseSimpleYaml(yaml);
  if (simple !== undefined) return simple;
  // Bundled, the package may arrive as a CommonJS namespace (its functions under `default`).
  const mod = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  const parse = typeof mod.parse === 'function' ? mod.parse : mod.default!.parse;
  return parse(yaml) as unknown;
}
