// A thread's skills: discovered once when it loads (the roots of docs/extensibility.md), listed in
// a new thread's opening context as Codex renders the list, loaded whole into the conversation
// for a prompt's `$name` mentions, and handed to the harness's skill tool (skill.load).
import type { RigConfig } from '../config/index.js';
import { findProjectRoot } from '../config/index.js';
import type { ConversationItem } from '../protocol/index.js';
import { defaultSkillBudget, discoverSkills, loadSkillBody, renderSkillInjection, renderSkillsList, selectMentionedSkills, type SkillMetadata } from '../skills/index.js';

export interface ThreadSkills {
  skills: SkillMetadata[];
  /** The `<skills_instructions>` fragment for a new thread's opening context. */
  contextItem?: ConversationItem;
  warnings: string[];
  /** The skill bodies a prompt's `$name` mentions load (user-role fragments, before the prompt). */
  mentionItems(text: string): ConversationItem[];
}

const fragment = (text: string): ConversationItem => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

export async function loadThreadSkills(inputs: { config: RigConfig; home: string; cwd: string; contextWindow?: number }): Promise<ThreadSkills> {
  const projectRoot = findProjectRoot(inputs.cwd, inputs.config.project_root_markers);
  const found = await discoverSkills({ home: inputs.home, cwd: inputs.cwd, ...(projectRoot !== undefined ? { projectRoot } : {}) });
  const warnings = found.errors.map((e) => `skills: ${e.path}: ${e.message}`);
  const rendered = renderSkillsList(found.skills, defaultSkillBudget(inputs.contextWindow));
  if (rendered.warning) warnings.push(rendered.warning);
  const skills = found.skills;
  return {
    skills,
    ...(rendered.text ? { contextItem: fragment(rendered.text) } : {}),
    warnings,
    mentionItems: (text) => {
      if (!text.includes('$') || skills.length === 0) return [];
      return selectMentionedSkills(text, skills).flatMap((skill) => {
        try {
          return [fragment(renderSkillInjection(loadSkillBody(skill)))];
        } catch (error) {
          warnings.push((error as Error).message);
          return [];
        }
      });
    },
  };
}
