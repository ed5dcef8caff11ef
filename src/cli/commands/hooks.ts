// rig hooks list [--json] | rig hooks trust: the hooks a session in this folder would run, with
// their status, and the confirmation project hooks need (each hook's hash is recorded under
// $RIG_HOME; a changed hook needs confirming again).
import type { Command } from 'commander';

interface Flags {
  json?: boolean;
  cd?: string;
}

export function registerHooks(program: Command): void {
  const hooks = program.command('hooks').description('list configured hooks, and confirm the project hooks of a trusted project');
  hooks
    .command('list', { isDefault: true })
    .description('every hook from $RIG_HOME (config.toml [hooks], hooks.json) and the project (.rig/), with its status')
    .option('--json', 'print a JSON array of {event, matcher, command, timeoutSec, source, sourcePath, status, key}')
    .option('-C, --cd <dir>', 'folder to look from (default: the current folder)')
    .action(async (flags: Flags) => {
      process.exitCode = await run('list', flags);
    });
  hooks
    .command('trust')
    .description('confirm the project hooks waiting for confirmation (new or changed) so they run')
    .option('-C, --cd <dir>', 'folder to look from (default: the current folder)')
    .action(async (flags: Flags) => {
      process.exitCode = await run('trust', flags);
    });
}

async function run(action: 'list' | 'trust', flags: Flags): Promise<number> {
  const path = await import('node:path');
  const { findProjectRoot, isProjectTrusted, loadConfig, resolveRigHome } = await import('../../config/index.js');
  const { confirmHooks, loadHooks } = await import('../../hooks/index.js');
  const home = resolveRigHome(process.env);
  const cwd = path.resolve(flags.cd ?? process.cwd());
  const { config } = loadConfig({ home, cwd });
  const projectRoot = findProjectRoot(cwd, config.project_root_markers);
  const trusted = isProjectTrusted(config, cwd);
  const loaded = loadHooks({ home, cwd, projectTrusted: trusted, ...(projectRoot !== undefined ? { projectRoot } : {}) });
  for (const warning of loaded.warnings) process.stderr.write(`rig: ${warning}\n`);
  if (action === 'trust') {
    if (loaded.pending.length === 0) {
      const untrusted = loaded.all.some((h) => h.status === 'untrusted-project');
      process.stdout.write(untrusted ? 'the project is not trusted: mark it trusted first (see the warning above)\n' : 'no hooks are waiting for confirmation\n');
      return untrusted ? 1 : 0;
    }
    confirmHooks(home, loaded.pending);
    for (const h of loaded.pending) process.stdout.write(`confirmed ${h.event} ${h.matcher ?? '*'}: ${h.command} (${h.sourcePath})\n`);
    return 0;
  }
  if (flags.json) {
    const rows = loaded.all.map((h) => ({
      event: h.event,
      matcher: h.matcher ?? null,
      command: h.command,
      timeoutSec: h.timeoutSec,
      async: h.async,
      source: h.scope,
      sourcePath: h.sourcePath,
      status: h.status,
      key: h.key,
    }));
    process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
    return 0;
  }
  if (loaded.all.length === 0) process.stdout.write('no hooks configured\n');
  for (const h of loaded.all) {
    process.stdout.write(`${h.event.padEnd(18)} ${(h.matcher ?? '*').padEnd(20)} ${h.status.padEnd(17)} ${h.command}\n${' '.repeat(19)}${h.sourcePath}\n`);
  }
  if (loaded.pending.length > 0) process.stdout.write(`${loaded.pending.length} project hook(s) wait for confirmation: run \`rig hooks trust\` to confirm them\n`);
  return 0;
}
