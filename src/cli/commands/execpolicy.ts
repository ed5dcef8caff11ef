// rig execpolicy check --rules FILE [--rules FILE...] [--pretty] [--resolve-host-executables] -- CMD...
import type { Command } from 'commander';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerExecpolicy(program: Command): void {
  const execpolicy = program.command('execpolicy').description('test .rules exec-policy files');
  execpolicy
    .command('check')
    .description('print, as JSON, the decision the rules give a command and the rules that matched')
    .argument('<command...>', 'the command to check (after --)')
    .requiredOption('--rules <file>', 'a .rules file (repeatable; later files add to earlier ones)', collect)
    .option('--pretty', 'indent the JSON')
    .option('--resolve-host-executables', 'also match rules written for a bare program name against absolute paths')
    .passThroughOptions()
    .action(async (command: string[], flags: { rules: string[]; pretty?: boolean; resolveHostExecutables?: boolean }) => {
      const { runExecPolicyCheckCommand } = await import('../../frontends/safety/execpolicy.js');
      process.exitCode = await runExecPolicyCheckCommand({
        rules: flags.rules,
        command,
        ...(flags.pretty ? { pretty: true } : {}),
        ...(flags.resolveHostExecutables ? { resolveHostExecutables: true } : {}),
      });
    });
}
