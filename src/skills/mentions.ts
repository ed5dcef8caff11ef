// `$name` mentions of skills in a prompt, as Codex reads them: `$` followed by letters, digits,
// `_`, `-` or `:`; a linked form `[$name](path/to/SKILL.md)` names one skill by its path. Names of
// common environment variables ($PATH, $HOME, ...) are not mentions. A plain name selects a skill
// only when exactly one skill has it.
import type { SkillMetadata } from './model.js';

const NAME_CHAR = /[A-Za-z0-9_:-]/;
const ENV_VARS = new Set(['PATH', 'HOME', 'USER', 'SHELL', 'PWD', 'TMPDIR', 'TEMP', 'TMP', 'LANG', 'TERM', 'XDG_CONFIG_HOME']);

export interface SkillMentions {
  names: Set<string>;
  paths: Set<string>;
}

export function extractSkillMentions(text: string): SkillMentions {
  const names = new Set<string>();
  const paths = new Set<string>();
  let i = 0;
  while (i < text.length) {
    if (text[i] === '[' && text[i + 1] === '$') {
      const linked = /^\[\$([A-Za-z0-9_:-]+)\]\s*\(([^)]*)\)/.exec(text.slice(i));
      if (linked && linked[2]!.trim() !== '') {
        if (!ENV_VARS.has(linked[1]!.toUpperCase())) paths.add(linked[2]!.trim().replace(/^skill:\/\//, ''));
        i += linked[0].length;
        continue;
      }
    }
    if (text[i] === '$' && NAME_CHAR.test(text[i + 1] ?? '')) {
      let end = i + 1;
      while (end < text.length && NAME_CHAR.test(text[end]!)) end++;
      const name = text.slice(i + 1, end);
      if (!ENV_VARS.has(name.toUpperCase())) names.add(name);
      i = end;
      continue;
    }
    i++;
  }
  return { names, paths };
}

/** The skills a prompt mentions, in the order of `skills`: linked paths first, then plain names. */
export function selectMentionedSkills(text: string, skills: readonly SkillMetadata[]): SkillMetadata[] {
  const { names, paths } = extractSkillMentions(text);
  if (names.size === 0 && paths.size === 0) return [];
  const counts = new Map<string, number>();
  for (const s of skills) counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
  const selected: SkillMetadata[] = [];
  const taken = new Set<string>();
  for (const s of skills) {
    if (paths.has(s.path) && !taken.has(s.path)) {
      selected.push(s);
      taken.add(s.path);
    }
  }
  const takenNames = new Set(selected.map((s) => s.name));
  for (const s of skills) {
    if (taken.has(s.path) || takenNames.has(s.name) || !names.has(s.name) || counts.get(s.name) !== 1) continue;
    selected.push(s);
    taken.add(s.path);
    takenNames.add(s.name);
  }
  return selected;
}
