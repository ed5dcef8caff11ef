// `rig sandbox [-s MODE | --full-auto] [--add-dir DIR] -- CMD...`: run one command under the
// sandbox the agent's commands get (default read-only, the current directory as the workspace),
// so users can see what their setup allows: the wrapping and the environment come from the code a
// session uses (core/safety-commands.ts). Exits with the command's status.
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { SafetySetupError, isSandboxMode, prepareSandboxedCommand, SANDBOX_MODES, type PreparedCommand } from '../../core/safety-commands.js';

export interface SandboxCommandInput {
  command: string[];
  /** -s/--sandbox */
  sandbox?: string;
  /** --full-auto: workspace-write */
  fullAuto?: boolean;
  addDir?: string[];
  /** -c key=value */
  config?: string[];
  /** -p/--profile */
  profile?: string;
  ignoreUserConfig?: boolean;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  stderr?: (text: string) => void;
}

/** Exit statuses of rig itself, distinct from the command's usual ones where it matters. */
const USAGE_ERROR = 2;
const SETUP_ERROR = 1;
const NOT_FOUND = 127;

export async function runSandboxCommand(input: SandboxCommandInput): Promise<number> {
  const env = input.env ?? process.env;
  const stderr = input.stderr ?? ((text: string) => void process.stderr.write(text));
  if (input.command.length === 0) {
    stderr('rig sandbox: no command given: put it after --, e.g. rig sandbox -- ls -la\n');
    return USAGE_ERROR;
  }
  if (input.sandbox !== undefined && input.fullAuto) {
    stderr('rig sandbox: choose one of -s/--sandbox and --full-auto\n');
    return USAGE_ERROR;
  }
  const mode = input.sandbox ?? (input.fullAuto ? 'workspace-write' : 'read-only');
  if (!isSandboxMode(mode)) {
    stderr(`rig sandbox: unknown sandbox mode "${mode}": use one of ${SANDBOX_MODES.join(', ')}\n`);
    return USAGE_ERROR;
  }

  let prepared: PreparedCommand;
  try {
    prepared = prepareSandboxedCommand({
      env,
      cwd: input.cwd ?? process.cwd(),
      mode,
      command: input.command,
      ...(input.config ? { config: input.config } : {}),
      ...(input.addDir ? { addDirs: input.addDir } : {}),
      ...(input.profile ? { profile: input.profile } : {}),
      ...(input.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
    });
  } catch (error) {
    if (error instanceof SafetySetupError) {
      stderr(`rig sandbox: ${error.message}\n`);
      return SETUP_ERROR;
    }
    throw error;
  }
  for (const warning of prepared.warnings) stderr(`rig sandbox: warning: ${warning}\n`);

  const child = spawn(prepared.argv[0]!, prepared.argv.slice(1), { cwd: prepared.cwd, env: prepared.env, stdio: 'inherit' });
  return new Promise<number>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      prepared.cleanup();
      stderr(`rig sandbox: cannot run ${input.command[0]}: ${error.code === 'ENOENT' ? 'command not found' : error.message}\n`);
      resolve(error.code === 'ENOENT' ? NOT_FOUND : SETUP_ERROR);
    });
    child.on('close', (code, signal) => {
      prepared.cleanup();
      // A command killed by a signal exits the way a shell reports it: 128 + the signal number.
      resolve(code ?? 128 + (signal ? osConstants.signals[signal] : 0));
    });
  });
}
