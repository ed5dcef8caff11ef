// Public surface of the skills room (see docs/extensibility.md).
export { discoverSkills, parseSkillFile, skillRoots } from './discover.js';
export type { DiscoverSkillsOptions } from './discover.js';
export { loadSkillBody, renderSkillInjection } from './body.js';
export type { LoadedSkill } from './body.js';
export { extractSkillMentions, selectMentionedSkills } from './mentions.js';
export type { SkillMentions } from './mentions.js';
export { defaultSkillBudget, renderSkillsList, SKILLS_CLOSE_TAG, SKILLS_OPEN_TAG } from './render.js';
export type { RenderedSkills, SkillBudget } from './render.js';
export { MAX_DESCRIPTION_LEN, MAX_NAME_LEN, SKILL_FILE } from './model.js';
export type { SkillError, SkillLoadOutcome, SkillMetadata, SkillScope } from './model.js';
