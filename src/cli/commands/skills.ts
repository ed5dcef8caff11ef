// rig skills list [--json] [-C DIR]: the skills a session in DIR would offer the model, in the
// order it lists them, and the SKILL.md files that failed to load (with the file and the field).
import type { Command } from 'commander';

interface ListFlags {
  json?: boolean;
  cd?: string;
}

export function registerSkills(program: Command): void {
  const skills = program.command('skills').description('list the skills (SKILL.md) found for this folder');
  skills
    .command('list', { isDefault: true })
    .description('skills from $RIG_HOME/skills, ~/.agents/skills and .agents/skills from the project root down to the cwd')
    .option('--json', 'print {skills: [{name, description, path, scope}], errors: [{path, message}]}')
    .option('-C, --cd <dir>', 'folder to look from (default: the current folder)')
    .action(async (flags: ListFlags) => {
      process.exitCode = await runSkillsList(flags);
    });
}

async function runSkillsList(flags: ListFlags): Promise<number> {
  const path = await import('node:path');
  const { findProjectRoot, loadConfig, resolveRigHome, ConfigError } = await import('../../config/index.js');
  const { discoverSkills } = await import('../../skills/index.js');
  const home = resolveRigHome(process.env);
  const cwd = path.resolve(flags.cd ?? process.cwd());
  let markers = ['.git'];
  try {
    markers = loadConfig({ home, cwd }).config.project_root_markers;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`rig: ${error.message}\n(using the default project root marker .git)\n`);
  }
  const root = findProjectRoot(cwd, markers);
  const outcome = await discoverSkills({ home, cwd, ...(root !== undefined ? { projectRoot: root } : {}) });
  if (flags.json) {
    process.stdout.write(
      JSON.stringify(
        {
          skills: outcome.skills.map(({ name, description, path: file, scope }) => ({ name, description, path: file, scope })),
          errors: outcome.errors,
        },
        null,
        2,
      ) + '\n',
    );
    return outcome.errors.length > 0 ? 1 : 0;
  }
  if (outcome.skills.length === 0) {
    process.stdout.write(`no skills found (looked in ${outcome.roots.map((r) => r.path).join(', ')})\n`);
  }
  const width = Math.max(4, ...outcome.skills.map((s) => s.name.length));
  for (const s of outcome.skills) {
    const description = s.description.length > 100 ? `${s.description.slice(0, 97)}...` : s.description;
    process.stdout.write(`${s.name.padEnd(width)}  ${s.scope.padEnd(4)}  ${description}\n${' '.repeat(width + 8)}${s.path}\n`);
  }
  for (const e of outcome.errors) process.stderr.write(`rig: skipped a skill: ${e.message}\n`);
  return outcome.errors.length > 0 ? 1 : 0;
}
