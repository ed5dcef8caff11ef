// What a discovered skill is, and where it came from.

/** repo: `.agents/skills` between the project root and the cwd; user: ~/.agents/skills, $RIG_HOME/skills. */
export type SkillScope = 'repo' | 'user';

export interface SkillMetadata {
  name: string;
  description: string;
  /** Absolute path of the SKILL.md file (symlinks resolved). */
  path: string;
  scope: SkillScope;
  /** The skills root it was found under. */
  root: string;
}

export interface SkillError {
  /** The SKILL.md file. */
  path: string;
  /** What is wrong, naming the field (and its line, when known). */
  message: string;
}

export interface SkillLoadOutcome {
  /** Ordered as Codex orders them: repo before user, then by name, then by path. */
  skills: SkillMetadata[];
  errors: SkillError[];
  /** The roots that were searched, highest precedence first. */
  roots: { path: string; scope: SkillScope }[];
}

export const SKILL_FILE = 'SKILL.md';
export const MAX_NAME_LEN = 64;
export const MAX_DESCRIPTION_LEN = 1024;
