// `rig execpolicy check --rules FILE [--rules FILE...] [--pretty] -- CMD...`: which decision the
// .rules files give a command and which rule made it, as JSON (Codex's output shape), so rules can
// be tested without running an agent.
import { runExecPolicyCheck } from '../../core/execpolicy.js';

export interface ExecPolicyCheckInput {
  rules: string[];
  command: string[];
  pretty?: boolean;
  resolveHostExecutables?: boolean;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
}

export async function runExecPolicyCheckCommand(input: ExecPolicyCheckInput): Promise<number> {
  const stderr = input.stderr ?? ((text: string) => void process.stderr.write(text));
  if (input.rules.length === 0) {
    stderr('rig execpolicy check: no rules given: pass --rules FILE (repeatable)\n');
    return 2;
  }
  if (input.command.length === 0) {
    stderr('rig execpolicy check: no command given: put it after --, e.g. rig execpolicy check --rules team.rules -- git push\n');
    return 2;
  }
  try {
    const json = await runExecPolicyCheck(input.rules, input.command, {
      ...(input.pretty ? { pretty: true } : {}),
      ...(input.resolveHostExecutables ? { resolveHostExecutables: true } : {}),
    });
    (input.stdout ?? ((text: string) => void process.stdout.write(text)))(`${json}\n`);
    return 0;
  } catch (error) {
    stderr(`rig execpolicy check: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
