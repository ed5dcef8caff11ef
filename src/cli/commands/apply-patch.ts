// rig apply-patch [PATCH]
import type { Command } from 'commander';

export function registerApplyPatch(program: Command): void {
  program
    .command('apply-patch')
    .description('apply an apply_patch-format patch in the current directory (the argument, or stdin when absent)')
    .argument('[patch]', 'the patch text')
    .action(async (patch: string | undefined) => {
      const { runApplyPatchCommand } = await import('../../frontends/apply-patch.js');
      process.exitCode = await runApplyPatchCommand(patch);
    });
}
