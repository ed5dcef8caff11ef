// rig undo [ID | --last] [--turns N] [--dry-run] [--force] [--json] [-C DIR]: puts back every file
// the newest N turns of a thread changed (by edit tools or shell commands), exactly as it was
// before them. A file changed since (by you or another program) is a conflict: reported with what
// differs and left as it is, unless --force.
import type { Command } from 'commander';

interface UndoFlags {
  turns?: string;
  last?: boolean;
  dryRun?: boolean;
  force?: boolean;
  json?: boolean;
  cd?: string;
}

export function registerUndo(program: Command): void {
  program
    .command('undo')
    .description("restore the files the last turn(s) of a thread changed; files changed since are reported, not overwritten")
    .argument('[id]', 'thread id or unique prefix (default: the most recent thread in this folder)')
    .option('--turns <n>', 'undo the newest N turns that changed files (default 1)')
    .option('--last', 'the most recent thread in this folder (the default without an id)')
    .option('--dry-run', 'show what would change, with diffs, and change nothing')
    .option('--force', 'overwrite files changed since the turn too')
    .option('--json', 'print {threadId, turns, files: [{path, action, conflict?, unrestorable?}], restored, skipped, unrestorable}')
    .option('-C, --cd <dir>', 'folder whose most recent thread to undo (default: the current folder)')
    .action(async (id: string | undefined, flags: UndoFlags) => {
      process.exitCode = await runUndo(id, flags);
    });
}

async function runUndo(id: string | undefined, flags: UndoFlags): Promise<number> {
  const path = await import('node:path');
  const { resolveRigHome } = await import('../../config/index.js');
  const { applyTurnUndo, planTurnUndo, storedCheckpoints } = await import('../../core/undo.js');
  const home = resolveRigHome(process.env);
  const cwd = path.resolve(flags.cd ?? process.cwd());
  const turns = flags.turns === undefined ? 1 : Number(flags.turns);
  if (!Number.isInteger(turns) || turns < 1) {
    process.stderr.write(`rig undo: --turns ${flags.turns} is not a whole number of turns; give --turns 1 or more\n`);
    return 2;
  }
  let source;
  let plan;
  try {
    source = storedCheckpoints(home, id ? { id } : { last: true }, cwd);
    plan = planTurnUndo(source, { turns });
  } catch (error) {
    process.stderr.write(`rig undo: ${(error as Error).message}\n`);
    return 1;
  }
  const shown = (file: string) => {
    const rel = path.relative(cwd, file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
  };
  const result = flags.dryRun ? undefined : applyTurnUndo(source, plan, Boolean(flags.force));
  if (flags.json) {
    process.stdout.write(
      JSON.stringify(
        {
          threadId: source.threadId,
          turns: plan.turns,
          files: plan.files.map(({ path: file, action, conflict, unrestorable }) => ({
            path: file,
            action,
            ...(conflict ? { conflict } : {}),
            ...(unrestorable ? { unrestorable } : {}),
          })),
          ...(result ?? { dryRun: true }),
        },
        null,
        2,
      ) + '\n',
    );
    return result && result.skipped.length > 0 ? 1 : 0;
  }
  const what = plan.turns.map((t) => `${t.turnId}`).join(', ');
  const out: string[] = [`${flags.dryRun ? 'would undo' : 'undoing'} ${what} of thread ${source.threadId}:`];
  for (const file of plan.files) {
    if (file.unrestorable) out.push(`  cannot restore ${shown(file.path)}: ${file.unrestorable}`);
    else if (file.conflict && !flags.force) out.push(`  conflict ${shown(file.path)}: ${file.conflict}; left as it is (rerun with --force to overwrite it)`);
    else out.push(`  ${file.action.padEnd(8)} ${shown(file.path)}${file.conflict ? ` (overwriting: ${file.conflict})` : ''}`);
    if (flags.dryRun && file.diff) out.push(file.diff.replace(/^/gm, '    '));
  }
  if (result) {
    const n = result.restored.length;
    out.push(`restored ${n} file${n === 1 ? '' : 's'}${result.skipped.length > 0 ? `; ${result.skipped.length} changed since and left as ${result.skipped.length === 1 ? 'it is' : 'they are'}` : ''}`);
  }
  process.stdout.write(out.join('\n') + '\n');
  return result && result.skipped.length > 0 ? 1 : 0;
}
