// Every command any tool runs: exec policy -> approval -> sandbox choice -> run -> on a sandbox
// denial, ask before rerunning unsandboxed (only where the policy allows asking). Nothing is ever
// escalated silently, and a command meant for the sandbox never runs without it by accident.
import { performance } from 'node:perf_hooks';
import type { CommandExecutionItem } from '../../protocol/index.js';
import { runProcess } from '../../exec/spawn.js';
import { buildShellArgv, detectUserShell, shellFromPath } from '../../exec/shell.js';
import { UnifiedExecError, type UnifiedExecResult } from '../../exec/unified-exec.js';
import type { ArgvWrapper } from '../../exec/live-process.js';
import { bwrapDiagnosis, canWritePath, defaultBackend, isLikelySandboxDenial, wrapCommand } from '../../exec/sandbox/index.js';
import {
  assessExecCommandLazily,
  decideExecApproval,
  decideRetryWithoutSandbox,
  type ApprovalAction,
} from '../../policy/index.js';
import type { ExecOutcome, ExecRequest, TurnServices } from '../spec.js';
import type { OrchestratorOptions } from './options.js';
import { interpretDecision } from './ask.js';

export const USER_DECLINED_EXEC = 'exec command rejected by user';

interface Attempt {
  sandboxed: boolean;
}

export class ExecOrchestrator {
  constructor(
    private readonly options: OrchestratorOptions,
    private readonly services: TurnServices,
  ) {}

  private sandboxAvailable(): boolean {
    const mode = this.options.sandbox.mode;
    if (mode === 'danger-full-access' || this.options.yolo) return true;
    const backend = defaultBackend(this.options.platform);
    if (backend === 'bwrap') return (this.options.wrapOptions?.diagnosis ?? bwrapDiagnosis)().ok;
    return backend === 'seatbelt';
  }

  /** The argv the policy judges: the argv as given, or the shell invocation of the script. */
  private policyArgv(request: ExecRequest): string[] {
    if (request.argv) return request.argv;
    const shell = request.shell ? shellFromPath(request.shell) : detectUserShell(this.options.commandEnv);
    return buildShellArgv(shell, request.command, request.login === true);
  }

  async exec(request: ExecRequest): Promise<ExecOutcome> {
    const { services, options } = this;
    const argv = this.policyArgv(request);
    const item: CommandExecutionItem = {
      id: services.newItemId(),
      type: 'command_execution',
      command: request.displayCommand ?? request.command,
      aggregated_output: '',
      exit_code: null,
      status: 'in_progress',
    };
    services.emit({ type: 'item.started', item: { ...item } });

    const assessment = await assessExecCommandLazily(options.execPolicy, argv, {
      policy: options.approvalPolicy,
      sandboxMode: options.sandbox.mode,
      escalationRequested: request.escalation !== undefined,
      ...(request.escalation?.prefixRule ? { prefixRule: request.escalation.prefixRule } : {}),
      cwd: request.cwd, tty: request.tty === true, env: options.commandEnv, canWrite: (p: string) => canWritePath(p, options.sandbox), trustedShells: [detectUserShell(options.commandEnv).path],
    });
    const action: ApprovalAction = decideExecApproval({
      requirement: assessment.requirement,
      policy: options.approvalPolicy,
      sandboxMode: options.sandbox.mode,
      escalationRequested: request.escalation !== undefined,
      sandboxAvailable: this.sandboxAvailable(),
      yolo: options.yolo,
      approvedForSession: options.approvalCache.isCommandApproved(argv),
    });

    let attempt: Attempt;
    let approvedByUser = false;
    switch (action.action) {
      case 'reject':
        return this.decline(item, action.reason);
      case 'run-sandboxed':
        attempt = { sandboxed: true };
        break;
      case 'run-unsandboxed':
        attempt = { sandboxed: false };
        break;
      case 'ask': {
        const reason = action.reason ?? request.escalation?.justification;
        const answer = interpretDecision(
          await services.askApproval({
            kind: 'exec',
            item_id: item.id,
            command: argv,
            cwd: request.cwd,
            ...(reason ? { reason } : {}),
            ...(action.proposedAmendment ? { proposed_prefix: action.proposedAmendment } : {}),
          }),
        );
        if (!answer.approved) return this.decline(item, USER_DECLINED_EXEC);
        // "For the session" means this command: the policy's proposed amendment is a sub-command of a
        // script (e.g. [touch, x] inside bash -lc) and would never match the argv checked next time.
        if (answer.forSession) options.approvalCache.approveCommandPrefix(argv);
        approvedByUser = true;
        attempt = { sandboxed: action.thenRun === 'sandboxed' };
        break;
      }
    }

    let outcome = await this.run(request, argv, attempt, item);
    if (attempt.sandboxed && outcome.sessionId === undefined && isLikelySandboxDenial(outcome.exitCode, outcome.output)) {
      const retry = decideRetryWithoutSandbox({ tool: 'shell', policy: options.approvalPolicy, alreadyApproved: approvedByUser });
      let rerun = retry.action === 'rerun-unsandboxed';
      if (retry.action === 'ask') {
        const answer = interpretDecision(
          await services.askApproval({ kind: 'exec', item_id: item.id, command: argv, cwd: request.cwd, reason: retry.reason }),
        );
        rerun = answer.approved;
        if (answer.approved && answer.forSession) options.approvalCache.approveCommandPrefix(argv);
      }
      if (rerun) {
        // The sandboxed attempt already completed its item; the rerun is a second command run.
        const rerunItem: CommandExecutionItem = { ...item, id: services.newItemId() };
        services.emit({ type: 'item.started', item: { ...rerunItem } });
        outcome = await this.run(request, argv, { sandboxed: false }, rerunItem);
      }
    }
    return outcome;
  }

  private decline(item: CommandExecutionItem, reason: string): ExecOutcome {
    this.services.emit({ type: 'item.completed', item: { ...item, aggregated_output: reason, status: 'declined' } });
    return { exitCode: null, output: '', totalBytes: 0, wallTimeMs: 0, timedOut: false, declined: reason };
  }

  private async run(request: ExecRequest, argv: string[], attempt: Attempt, item: CommandExecutionItem): Promise<ExecOutcome> {
    const { options, services } = this;
    // The process layer merges the sandbox's env and runs its cleanup once the process is gone.
    const wrap: ArgvWrapper | undefined = attempt.sandboxed && !options.yolo
      ? (command, context) =>
          wrapCommand(options.sandbox, command, context.cwd, options.platform, undefined, {
            ...options.wrapOptions,
            ...(context.tty ? { tty: true } : {}),
          })
      : undefined;
    const onOutput = (chunk: Buffer) =>
      services.emit({ type: 'item.command_execution.output_delta', item_id: item.id, delta: chunk.toString('utf8') });

    try {
      if (request.yieldTimeMs !== undefined) return await this.runSession(request, item, wrap, onOutput);
      const result = await runProcess({
        argv,
        cwd: request.cwd,
        env: options.commandEnv,
        ...(wrap ? { wrap } : {}),
        ...(request.tty ? { tty: true } : {}),
        ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
        signal: services.signal,
        onOutput,
      });
      const completed: CommandExecutionItem = {
        ...item,
        aggregated_output: result.output,
        exit_code: result.exitCode,
        status: result.exitCode === 0 ? 'completed' : 'failed',
      };
      services.emit({ type: 'item.completed', item: completed });
      return { exitCode: result.exitCode, output: result.output, totalBytes: result.totalBytes, wallTimeMs: result.wallTimeMs, timedOut: result.timedOut };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      services.emit({ type: 'item.completed', item: { ...item, aggregated_output: message, status: 'failed' } });
      return { exitCode: null, output: '', totalBytes: 0, wallTimeMs: 0, timedOut: false, declined: message };
    }
  }

  private async runSession(
    request: ExecRequest,
    item: CommandExecutionItem,
    wrap: ArgvWrapper | undefined,
    onOutput: (chunk: Buffer) => void,
  ): Promise<ExecOutcome> {
    const { options, services } = this;
    let aggregated = '';
    let settled = false;
    const started = performance.now();
    const finish = (exitCode: number) => {
      if (settled) return;
      settled = true;
      services.emit({
        type: 'item.completed',
        item: { ...item, aggregated_output: aggregated, exit_code: exitCode, status: exitCode === 0 ? 'completed' : 'failed' },
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
          aggregated += chunk.toString('utf8');
          onOutput(chunk);
        },
        onExit: ({ exitCode }) => finish(exitCode),
      });
    } catch (error) {
      const message = error instanceof UnifiedExecError || error instanceof Error ? error.message : String(error);
      services.emit({ type: 'item.completed', item: { ...item, aggregated_output: message, status: 'failed' } });
      return { exitCode: null, output: '', totalBytes: 0, wallTimeMs: performance.now() - started, timedOut: false, declined: message };
    }
    if (result.sessionId !== undefined) {
      services.emit({ type: 'item.updated', item: { ...item, aggregated_output: aggregated } });
    } else if (result.exitCode !== null) {
      finish(result.exitCode);
    }
    return sessionOutcome(result);
  }

  async writeStdin(sessionId: number, chars: string, yieldTimeMs: number): Promise<ExecOutcome> {
    return sessionOutcome(await this.options.unifiedExec.writeStdin({ sessionId, chars, yieldTimeMs, signal: this.services.signal }));
  }
}

function sessionOutcome(result: UnifiedExecResult): ExecOutcome {
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
