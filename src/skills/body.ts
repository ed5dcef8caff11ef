// A skill's body, loaded when it is used (a `$name` mention, or a harness's skill tool), never at
// discovery. Codex puts the whole SKILL.md in the conversation as a user-role fragment:
// `<skill>\n<name>NAME</name>\n<path>PATH</path>\nCONTENTS\n</skill>`.
import fs from 'node:fs';
import type { SkillMetadata } from './model.js';
import { splitFrontmatter } from './frontmatter.js';

export interface LoadedSkill {
  skill: SkillMetadata;
  /** The whole file. */
  contents: string;
  /** The file without its frontmatter (what a skill tool returns to the model). */
  body: string;
}

export function loadSkillBody(skill: SkillMetadata): LoadedSkill {
  let contents: string;
  try {
    contents = fs.readFileSync(skill.path, 'utf8');
  } catch (error) {
    throw new Error(`failed to load skill ${skill.name} at ${skill.path}: ${(error as Error).message}`);
  }
  const split = splitFrontmatter(contents);
  return { skill, contents, body: (split?.body ?? contents).replace(/^\s*\n/, '') };
}

export function renderSkillInjection(loaded: LoadedSkill): string {
  return `<skill>\n<name>${loaded.skill.name}</name>\n<path>${loaded.skill.path}</path>\n${loaded.contents}\n</skill>`;
}
