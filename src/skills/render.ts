// The skills list the model sees, in the structure Codex gives it (wording ours): a
// `<skills_instructions>` block with a `## Skills` heading, one line per skill
// `- name: description (file: /abs/path/SKILL.md)` under `### Available skills`, then how to use
// them (open the file when a skill applies; `$name` mentions). It fits a budget: 2% of the context
// window in tokens when known, else 8,000 characters. Over budget, descriptions are shortened
// evenly (short ones give their share to long ones); if even bare lines do not fit, skills are
// dropped from the end (repo skills come first) and a warning says how many.
import type { SkillMetadata } from './model.js';

export const SKILLS_OPEN_TAG = '<skills_instructions>';
export const SKILLS_CLOSE_TAG = '</skills_instructions>';
const DEFAULT_CHAR_BUDGET = 8_000;
const CONTEXT_WINDOW_PERCENT = 2;

const INTRO =
  'Skills are folders of instructions kept in a `SKILL.md` file. The skills below can be used in this session; each line gives the name, a description and the path of its `SKILL.md`.';

const HOW_TO_USE = [
  '- When the user names a skill (`$name` or in words), or the task plainly fits a description above, use that skill for this turn; several named skills mean all of them. A skill named in one turn does not carry over to the next unless named again.',
  '- To use a skill, read its `SKILL.md` first, only as far as the task needs. Paths inside it are relative to the folder holding that `SKILL.md`.',
  '- Load referenced files (`references/`, `scripts/`, `assets/`) only when the task needs them; run or adapt scripts a skill ships instead of rewriting them.',
  '- Say in one short line which skill you are using and why. If a named skill is missing or its file cannot be read, say so briefly and carry on without it.',
].join('\n');

export type SkillBudget = { tokens: number } | { chars: number };

export function defaultSkillBudget(contextWindow?: number): SkillBudget {
  return contextWindow !== undefined && contextWindow > 0
    ? { tokens: Math.max(1, Math.floor((contextWindow * CONTEXT_WINDOW_PERCENT) / 100)) }
    : { chars: DEFAULT_CHAR_BUDGET };
}

function cost(budget: SkillBudget, text: string): number {
  return 'tokens' in budget ? Math.ceil(Buffer.byteLength(text) / 4) : [...text].length;
}

function line(skill: SkillMetadata, description: string): string {
  return description === '' ? `- ${skill.name}: (file: ${skill.path})` : `- ${skill.name}: ${description} (file: ${skill.path})`;
}

export interface RenderedSkills {
  /** The block for the model's context, or undefined when there are no skills. */
  text: string | undefined;
  included: number;
  omitted: number;
  truncatedDescriptions: number;
  warning?: string;
}

export function renderSkillsList(skills: readonly SkillMetadata[], budget: SkillBudget = defaultSkillBudget()): RenderedSkills {
  if (skills.length === 0) return { text: undefined, included: 0, omitted: 0, truncatedDescriptions: 0 };
  const limit = 'tokens' in budget ? budget.tokens : budget.chars;
  const lineCost = (text: string) => cost(budget, `${text}\n`);
  const full = skills.map((s) => line(s, s.description));
  let lines: string[];
  let omitted = 0;
  let truncated = 0;
  if (full.reduce((sum, l) => sum + lineCost(l), 0) <= limit) {
    lines = full;
  } else {
    const bare = skills.map((s) => line(s, ''));
    const bareCost = bare.reduce((sum, l) => sum + lineCost(l), 0);
    if (bareCost <= limit) {
      // Hand out description characters one at a time, round robin, while the budget lasts.
      const chars = skills.map(() => 0);
      const chars0 = skills.map((s) => [...s.description]);
      let remaining = limit - bareCost;
      const extra = (i: number, n: number) => (n === 0 ? 0 : lineCost(line(skills[i]!, chars0[i]!.slice(0, n).join(''))) - lineCost(bare[i]!));
      for (let changed = true; changed; ) {
        changed = false;
        for (let i = 0; i < skills.length; i++) {
          if (chars[i]! >= chars0[i]!.length) continue;
          const delta = extra(i, chars[i]! + 1) - extra(i, chars[i]!);
          if (delta <= remaining) {
            chars[i]!++;
            remaining -= delta;
            changed = true;
          }
        }
      }
      lines = skills.map((s, i) => line(s, chars0[i]!.slice(0, chars[i]!).join('')));
      truncated = skills.filter((s, i) => chars[i]! < chars0[i]!.length).length;
    } else {
      lines = [];
      let used = 0;
      for (const l of bare) {
        if (used + lineCost(l) <= limit) {
          used += lineCost(l);
          lines.push(l);
        } else omitted++;
      }
      truncated = skills.length;
    }
  }
  const body = ['## Skills', INTRO, '### Available skills', ...lines, '### How to use skills', HOW_TO_USE].join('\n');
  const result: RenderedSkills = {
    text: `${SKILLS_OPEN_TAG}\n${body}\n${SKILLS_CLOSE_TAG}`,
    included: lines.length,
    omitted,
    truncatedDescriptions: truncated,
  };
  if (omitted > 0) {
    result.warning = `The skills list exceeded its context budget: descriptions were left out and ${omitted} skill${omitted === 1 ? ' was' : 's were'} not listed. Remove unused skills to make room.`;
  } else if (truncated > 0) {
    result.warning = 'Skill descriptions were shortened to fit the skills context budget; every skill is still listed.';
  }
  return result;
}
