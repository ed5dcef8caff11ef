// skill.load: every harness's skill tool (Claude Code and Kimi `Skill`, opencode and Qwen Code
// `skill`, DeepSeek `load_skill`). The model names a skill from the list in its context; the tool
// gives back the SKILL.md body (without its frontmatter) and the folder it lives in, so relative
// paths in it resolve. The name may come in any harness's field (`skill`, `name`, `command`).
import { dirname } from 'node:path';
import type { ResolvedTool } from '../../harness/profile.js';
import { loadSkillBody } from '../../skills/index.js';
import type { ToolSpec } from '../spec.js';
import { fail, functionSpec, ok, stringArg } from './common.js';

const NAME_FIELDS = ['skill', 'name', 'command', 'skill_name'];

export function createSkillTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Load a skill by name: its instructions, from the skills listed in your context.',
      parameters: { type: 'object', properties: { skill: { type: 'string', description: 'The skill name' } }, required: ['skill'] },
      parallelSafe: true,
    },
    async (args, ctx) => {
      const raw = NAME_FIELDS.map((field) => stringArg(args, field)).find((v) => v !== undefined && v.trim() !== '');
      const skills = ctx.caps.skills?.() ?? [];
      const known = skills.map((s) => s.name).join(', ') || '(none: no SKILL.md was found for this session)';
      if (raw === undefined) return fail(`${tool.name}: give the skill's name (one of: ${known})`);
      const name = raw.trim().replace(/^\$/, '').replace(/^\//, '');
      const matching = skills.filter((s) => s.name === name);
      if (matching.length === 0) return fail(`no skill named ${JSON.stringify(name)}; available skills: ${known}`);
      if (matching.length > 1) {
        return fail(`${matching.length} skills are named ${JSON.stringify(name)} (${matching.map((s) => s.path).join(', ')}); ask the user which one to use`);
      }
      const loaded = loadSkillBody(matching[0]!);
      return ok(`Skill: ${loaded.skill.name}\nBase directory: ${dirname(loaded.skill.path)}\n\n${loaded.body}`);
    },
  );
}
