// The command runtime: any harness's shell tool, one-shot (runProcess) or a unified-exec session
// the model keeps polling. It owns the command_execution item: started once, completed once per
// attempt (an unsandboxed rerun is an item of its own).
import type { ClientTerminals, CommandExecutionItem } from '../../protocol/index.js';
import { runProcess } from '../../exec/spawn.js';
import { buildShellArgv, detectUserShell, shellFromPath } from '../../exec/shell.js';
import { UnifiedExecError, type UnifiedExecResult } from '../../exec/unified-exec.js';
import { HeadTailBuffer } from '../../exec/head-tail-buffer.js';
import type { ArgvWrapper } from '../../exec/live-process.js';
import { bwrapDiagnosisReady, canWritePath, defaultBackend, isLikelySandboxDenial, wrapCommand } from '../../exec/sandbox/index.js';
import { assessExecCommandLazily, decideExecApproval, shlexJoin, type ApprovalAction } from '../../policy/index.js';
import type { CommandCheckpoint, ExecOutcome, ExecRequest, TurnServices } from '../spec.js';
import type { OrchestratorOptions } from './options.js';
import { orchestrate, type ApprovalQuestion, type AskContext, type Attempt, type Runtime } from './pipeline.js';

export const USER_DECLINED_EXEC = 'exec command rejected by user';

/** Bytes of output a client's terminal keeps for rig (the model sees this much at most). */
const CLIENT_TERMINAL_OUTPUT_LIMIT = 1024 * 1024;

/** A denial line longer than this is cut for the question. */
const MAX_DENIAL_CHARS = 240;

const HOW_TO_ALLOW_COMMAND =
  'To allow it: run it in an interactive session (`rig resume <thread id>`), where you are asked; ' +
  'or allow the command with an exec-policy rule (prefix_rule(pattern = [...], decision = "allow") in $RIG_HOME/rules/default.rules).';

class CommandRuntime implements Runtime<ExecOutcome> {
  readonly retryTool = 'shell' as const;
  private readonly argv: string[];
  /** What policy, approval cache and question see; the argv itself unless the request names other text. */
  private readonly judged: string[];
  private readonly item: CommandExecutionItem;
  private attempts = 0;

  constructor(
    private readonly request: ExecRequest,
    private readonly options: OrchestratorOptions,
    private readonly services: TurnServices,
  ) {
    this.argv = policyArgv(request, options);
    this.judged = request.judgedArgv ?? this.argv;
    this.item = {
      id: services.newItemId(),
      type: 'command_execution',
      command: request.displayCommand ?? request.command,
      aggregated_output: '',
      exit_code: null,
      status: 'in_progress',
    };
    services.emit({ type: 'item.started', item: { ...this.item } });
  }

  describe(): string {
    return `the command \`${shlexJoin(this.judged)}\``;
  }

  private async sandboxAvailable(): Promise<boolean> {
    const mode = this.options.sandbox.mode;
    if (mode === 'danger-full-access' || this.options.yolo) return true;
    const backend = defaultBackend(this.options.platform);
    if (backend === 'bwrap') {
      const injected = this.options.wrapOptions?.diagnosis;
      return (injected ? injected() : await bwrapDiagnosisReady()).ok;
    }
    return backend === 'seatbelt';
  }

  async decide(): Promise<ApprovalAction> {
    const { options, request } = this;
    const assessment = await assessExecCommandLazily(options.execPolicy, this.judged, {
      policy: options.approvalPolicy,
      sandboxMode: options.sandbox.mode,
      escalationRequested: request.escalation !== undefined,
      ...(request.escalation?.prefixRule ? { prefixRule: request.escalation.prefixRule } : {}),
      // Where and how it runs: the classifier judges what a command can reach from there.
      cwd: request.cwd,
      tty: request.tty === true,
      env: options.commandEnv,
      canWrite: (path: string) => canWritePath(path, options.sandbox),
      trustedShells: [detectUserShell(options.commandEnv).path],
    });
    const action = decideExecApproval({
      requirement: assessment.requirement,
      policy: options.approvalPolicy,
      sandboxMode: options.sandbox.mode,
      escalationRequested: request.escalation !== undefined,
      sandboxAvailable: await this.sandboxAvailable(),
      yolo: options.yolo,
      approvedForSession: options.approvalCache.isCommandApproved(this.judged),
    });
    // The model's own justification for asking to leave the sandbox is what a person reads.
    if (action.action === 'ask' && action.reason === undefined && request.escalation?.justification) {
      return { ...action, reason: request.escalation.justification };
    }
    return action;
  }

  async question(context: AskContext): Promise<ApprovalQuestion> {
    return {
      kind: 'exec',
      item_id: this.item.id,
      command: this.judged,
      command_text: shlexJoin(this.judged),
      cwd: this.request.cwd,
      sandboxed: context.sandboxed && !this.options.yolo,
      retry_without_sandbox: context.retry,
      ...(context.denial ? { sandbox_denial: context.denial } : {}),
      ...(context.reason ? { reason: context.reason } : {}),
      ...(context.proposedPrefix ? { proposed_prefix: context.proposedPrefix } : {}),
    };
  }

  rememberApproval(): void {
    // "For the session" means this command: the policy's proposed amendment is a sub-command of a
    // script (e.g. [touch, x] inside bash -lc) and would never match the argv checked next time.
    this.options.approvalCache.approveCommandPrefix(this.judged);
  }

  readonly declinedByUser = USER_DECLINED_EXEC;

  declined(message: string): ExecOutcome {
    this.services.emit({ type: 'item.completed', item: { ...this.item, aggregated_output: message, status: 'declined' } });
    return { exitCode: null, output: '', totalBytes: 0, wallTimeMs: 0, timedOut: false, declined: message };
  }

  withNote(outcome: ExecOutcome, note: string): ExecOutcome {
    return { ...outcome, output: `${outcome.output}${outcome.output === '' || outcome.output.endsWith('\n') ? '' : '\n'}\n${note}` };
  }

  deniedBySandbox(outcome: ExecOutcome): boolean {
    return outcome.sessionId === undefined && isLikelySandboxDenial(outcome.exitCode, outcome.output);
  }

  /** The output line that shows the denial (permission denied, read-only file system, ...), else the last one. */
  denial(outcome: ExecOutcome): string | undefined {
    const lines = outcome.output.split('\n').map((line) => line.trim()).filter((line) => line !== '');
    const telling = lines.find((line) => isLikelySandboxDenial(1, line) && !/^exit(ed)? /i.test(line)) ?? lines.at(-1);
    if (telling === undefined) return outcome.exitCode === null ? undefined : `exit status ${outcome.exitCode}`;
    return telling.length > MAX_DENIAL_CHARS ? `${telling.slice(0, MAX_DENIAL_CHARS - 1)}…` : telling;
  }

  async run(attempt: Attempt): Promise<ExecOutcome> {
    // The first attempt completes the started item; a rerun is a second command run, a new item.
    const item = this.attempts++ === 0 ? this.item : { ...this.item, id: this.services.newItemId() };
    if (item !== this.item) this.services.emit({ type: 'item.started', item: { ...item } });
    const { options, services, request } = this;
    // The process layer merges the sandbox's env and runs its cleanup once the process is gone.
    const wrap: ArgvWrapper | undefined = attempt.sandboxed && !options.yolo
      ? (command, context) =>
          wrapCommand(options.sandbox, command, context.cwd, options.platform, undefined, {
            ...options.wrapOptions,
            ...(context.tty ? { tty: true } : { descriptors: true }),
          })
      : undefined;
    const onOutput = (chunk: Buffer) =>
      services.emit({ type: 'item.command_execution.output_delta', item_id: item.id, delta: chunk.toString('utf8') });

    // What the command writes is found by the turn's checkpoint window around it (for undo).
    const window = await services.checkpoint?.beginCommand();
    try {
      const terminals = wrap ? undefined : this.clientTerminals();
      if (terminals) return await this.runInClientTerminal(item, terminals, window);
      if (request.yieldTimeMs !== undefined) return await this.runSession(item, wrap, onOutput, window);
      const result = await runProcess({
        argv: this.argv,
        cwd: request.cwd,
        env: options.commandEnv,
        scope: options.scope,
        ...(wrap ? { wrap } : {}),
        ...(request.tty ? { tty: true } : {}),
        ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
        signal: services.signal,
        onOutput,
      });
      services.emit({
        type: 'item.completed',
        item: { ...item, aggregated_output: result.output, exit_code: result.exitCode, status: result.exitCode === 0 ? 'completed' : 'failed' },
      });
      await window?.end();
      return { exitCode: result.exitCode, output: result.output, totalBytes: result.totalBytes, wallTimeMs: result.wallTimeMs, timedOut: result.timedOut };
    } catch (error) {
      await window?.end();
      const message = error instanceof Error ? error.message : String(error);
      services.emit({ type: 'item.completed', item: { ...item, aggregated_output: message, status: 'failed' } });
      return { exitCode: null, output: '', totalBytes: 0, wallTimeMs: 0, timedOut: false, declined: message };
    }
  }

  /**
   * The client's terminals, where this command may run in one. The client runs it without rig's
   * sandbox, so only a thread that has no sandbox at all (danger-full-access, or the bypass flag)
   * hands commands to it: a sandboxed thread's command, and its approved unsandboxed rerun, stay
   * rig's. Commands that outlive the call (unified-exec sessions) or need a PTY stay rig's too.
   */
  private clientTerminals(): ClientTerminals | undefined {
    const { options, request } = this;
    if (!(options.yolo || options.sandbox.mode === 'danger-full-access')) return undefined;
    if (request.yieldTimeMs !== undefined || request.tty) return undefined;
    return options.clientTerminals?.();
  }

  private async runInClientTerminal(item: CommandExecutionItem, terminals: ClientTerminals, window: CommandCheckpoint | undefined): Promise<ExecOutcome> {
    const { services, request } = this;
    const [command = '', ...args] = this.argv;
    const started = performance.now();
    const run = await terminals.run(
      { command, args, cwd: request.cwd, outputByteLimit: CLIENT_TERMINAL_OUTPUT_LIMIT },
      { signal: services.signal, ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}) },
    );
    await window?.end();
    const output = run.truncated ? `[... earlier output dropped by the editor's terminal ...]\n${run.output}` : run.output;
    services.emit({
      type: 'item.completed',
      item: { ...item, aggregated_output: output, exit_code: run.exitCode, status: run.exitCode === 0 ? 'completed' : 'failed' },
    });
    return { exitCode: run.exitCode, output, totalBytes: Buffer.byteLength(run.output), wallTimeMs: performance.now() - started, timedOut: run.timedOut };
  }

  /** A session outlives the call: its checkpoint window closes when it exits (or when the turn ends). */
  private async runSession(
    item: CommandExecutionItem,
    wrap: ArgvWrapper | undefined,
    onOutput: (chunk: Buffer) => void,
    window: CommandCheckpoint | undefined,
  ): Promise<ExecOutcome> {
    const { options, services, request } = this;
    // A session may be a dev server that prints for hours: its item keeps a head and a tail only.
    const aggregated = new HeadTailBuffer();
    let settled = false;
    const started = performance.now();
    const finish = (exitCode: number) => {
      if (settled) return;
      settled = true;
      services.emit({
        type: 'item.completed',
        item: { ...item, aggregated_output: aggregated.toString(), exit_code: exitCode, status: exitCode === 0 ? 'completed' : 'failed' },
      });
    };
    let result: UnifiedExecResult;
    try {
      result = await options.unifiedExec.execCommand({
        cmd: request.command,
        cwd: request.cwd,
        ...(request.shell ? { shell: request.shell } : {}),
        tty: request.tty ?? false,
        ...(request.login !== undefined ? { login: request.login } : {}),
        yieldTimeMs: request.yieldTimeMs,
        ...(wrap ? { wrap } : {}),
        signal: services.signal,
        onOutput: (chunk) => {
          aggregated.push(chunk);
          onOutput(chunk);
        },
        onExit: ({ exitCode }) => {
          finish(exitCode);
          void window?.end();
        },
      });
    } catch (error) {
      await window?.end();
      const message = error instanceof UnifiedExecError || error instanceof Error ? error.message : String(error);
      services.emit({ type: 'item.completed', item: { ...item, aggregated_output: message, status: 'failed' } });
      return { exitCode: null, output: '', totalBytes: 0, wallTimeMs: performance.now() - started, timedOut: false, declined: message };
    }
    if (result.sessionId !== undefined && services.signal.aborted) {
      // An interrupt stops the command the turn was waiting on, not just the wait: it must not run
      // on and print onto the next prompt. Its item completes from onExit with the signal's code.
      await options.unifiedExec.closeSession(result.sessionId);
      return sessionOutcome({ ...result, sessionId: undefined });
    }
    if (result.sessionId !== undefined) {
      services.emit({ type: 'item.updated', item: { ...item, aggregated_output: aggregated.toString() } });
    } else if (result.exitCode !== null) {
      finish(result.exitCode);
    }
    // A command that ended within the call has written all it will: record it before the model reads on.
    if (result.sessionId === undefined) await window?.end();
    return sessionOutcome(result);
  }
}

/** The argv the policy judges: the argv as given, or the shell invocation of the script. */
function policyArgv(request: ExecRequest, options: OrchestratorOptions): string[] {
  if (request.argv) return request.argv;
  const shell = request.shell ? shellFromPath(request.shell) : detectUserShell(options.commandEnv);
  return buildShellArgv(shell, request.command, request.login === true);
}

export function runCommand(request: ExecRequest, options: OrchestratorOptions, services: TurnServices): Promise<ExecOutcome> {
  return orchestrate(new CommandRuntime(request, options, services), services, {
    approvalPolicy: options.approvalPolicy,
    howToAllow: HOW_TO_ALLOW_COMMAND,
  });
}

/** Type into / poll a session; an interrupt during the wait stops that session's command. */
export async function writeToSession(
  sessionId: number,
  chars: string,
  yieldTimeMs: number,
  options: OrchestratorOptions,
  services: TurnServices,
): Promise<ExecOutcome> {
  const result = await options.unifiedExec.writeStdin({ sessionId, chars, yieldTimeMs, signal: services.signal });
  if (result.sessionId !== undefined && services.signal.aborted) {
    await options.unifiedExec.closeSession(result.sessionId);
    return sessionOutcome({ ...result, sessionId: undefined });
  }
  return sessionOutcome(result);
}

/** Read a background job's new output; an interrupt ends the wait and leaves the job running. */
export async function readSession(
  sessionId: number,
  read: { waitMs: number; until?: RegExp },
  options: OrchestratorOptions,
  services: TurnServices,
): Promise<ExecOutcome> {
  const result = await options.unifiedExec.readSession({ sessionId, ...read, signal: services.signal });
  return sessionOutcome(result);
}

function sessionOutcome(result: Omit<UnifiedExecResult, 'sessionId'> & { sessionId?: number | undefined }): ExecOutcome {
  return {
    exitCode: result.exitCode,
    output: result.output,
    totalBytes: result.totalBytes,
    wallTimeMs: result.wallTimeMs,
    timedOut: result.timedOut,
    ...(result.sessionId !== undefined ? { sessionId: result.sessionId } : {}),
    ...(result.prunedSessionIds.length ? { prunedSessionIds: result.prunedSessionIds } : {}),
  };
}
