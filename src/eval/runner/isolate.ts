// The isolate runner (`--isolate`): each trial is a real `rig exec --json` child process, started in
// the trial's workspace with the same settings the in-process runner gives its thread
// (workspace-write sandbox, approval policy never). Its JSONL events are parsed as they arrive; its
// rollout is followed for the running token usage. Aborting sends SIGTERM (rig interrupts the turn
// and kills what it started), then SIGKILL after a grace period. Costs a process start per trial;
// buys a trial that cannot disturb the eval process however it fails.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveRigHome } from '../../core/config-files.js';
import type { ThreadEvent, TokenUsage } from '../../protocol/index.js';
import { findThreadRollout, RolloutTail } from '../rollout-metrics.js';
import type { AgentObserver, AgentOutcome, AgentRequest, TrialRunner } from './types.js';

const KILL_GRACE_MS = 5000;
const POLL_MS = 500;
const STDERR_TAIL = 4000;

/** bin/rig.js of this installation, found upward from this module (dist/ chunk or src/ file). */
export function findRigBin(): string {
  const fromEnv = process.env['RIG_EVAL_RIG_BIN'];
  if (fromEnv) return fromEnv;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'bin', 'rig.js');
    if (existsSync(candidate) && existsSync(join(dir, 'package.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('cannot find bin/rig.js of this rig installation (set RIG_EVAL_RIG_BIN to its path)');
}

export function execArgs(request: AgentRequest): string[] {
  const args = ['exec', '--json', '--sandbox', 'workspace-write', '--ask-for-approval', 'never', '--color', 'never', '--harness', request.harness, '-m', request.model];
  if (request.replayFile) args.push('--replay', request.replayFile);
  else args.push('--provider', request.provider);
  if (request.profile) args.push('--profile', request.profile);
  // Only the workspace and the trial's own TMPDIR are writable: not /tmp, where the other trials'
  // workspaces are. A -c from the user comes later and wins.
  args.push('-c', 'sandbox_workspace_write.exclude_slash_tmp=true');
  for (const override of request.config) args.push('-c', override);
  if (request.maxSteps !== undefined) args.push('-c', `max_turn_steps=${request.maxSteps}`);
  args.push('-C', request.workspace, '-');
  return args;
}

export class IsolateRunner implements TrialRunner {
  readonly name = 'isolate' as const;
  private readonly rigBin: string;

  constructor(options: { rigBin?: string } = {}) {
    this.rigBin = options.rigBin ?? findRigBin();
  }

  run(request: AgentRequest, observer: AgentObserver, signal: AbortSignal): Promise<AgentOutcome> {
    const startedAt = performance.now();
    const home = resolveRigHome(request.env);
    return new Promise((resolvePromise) => {
      const child = spawn(process.execPath, [this.rigBin, ...execArgs(request)], {
        cwd: request.workspace,
        env: request.env,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(request.prompt);

      let threadId: string | undefined;
      let rolloutPath: string | undefined;
      let tail: RolloutTail | undefined;
      let finalUsage: TokenUsage | undefined;
      let turnError: string | undefined;
      let completed = false;
      let failed = false;
      let stderr = '';
      let buffered = '';

      const pollUsage = () => {
        if (!threadId) return;
        if (!tail) {
          rolloutPath = findThreadRollout(home, threadId);
          if (!rolloutPath) return;
          tail = new RolloutTail(rolloutPath);
        }
        observer.usage(tail.poll());
      };
      const onEvent = (event: ThreadEvent) => {
        if (event.type === 'thread.started') threadId = event.thread_id;
        if (event.type === 'turn.completed') {
          completed = true;
          finalUsage = event.usage;
        }
        if (event.type === 'turn.failed') {
          failed = true;
          turnError = event.error.message;
        }
        if (event.type === 'error' && !turnError) turnError = event.message;
        observer.event(event);
      };
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          if (line.trim() === '') continue;
          try {
            onEvent(JSON.parse(line) as ThreadEvent);
          } catch {
            stderr += `(unparsed stdout line) ${line.slice(0, 200)}\n`;
          }
        }
        pollUsage();
      });
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-STDERR_TAIL);
      });
      const poller = setInterval(pollUsage, POLL_MS);

      let killTimer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        child.kill('SIGTERM');
        killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });

      const finish = (outcome: Omit<AgentOutcome, 'durationMs' | 'threadId' | 'rolloutPath'>) => {
        clearInterval(poller);
        if (killTimer) clearTimeout(killTimer);
        signal.removeEventListener('abort', onAbort);
        if (threadId && !rolloutPath) rolloutPath = findThreadRollout(home, threadId);
        resolvePromise({
          ...outcome,
          ...(threadId ? { threadId } : {}),
          ...(rolloutPath ? { rolloutPath } : {}),
          durationMs: performance.now() - startedAt,
        });
      };
      child.on('error', (error) => finish({ status: 'crashed', error: `cannot start rig exec: ${error.message}` }));
      child.on('close', (code, exitSignal) => {
        if (signal.aborted) {
          finish({ status: 'interrupted', ...(finalUsage ? { usage: finalUsage } : {}), ...(turnError ? { error: turnError } : {}) });
        } else if (completed && code === 0) {
          finish({ status: 'completed', ...(finalUsage ? { usage: finalUsage } : {}) });
        } else if (failed || (code === 1 && turnError)) {
          finish({ status: 'failed', error: turnError ?? 'turn failed' });
        } else {
          const how = exitSignal ? `was killed by ${exitSignal}` : `exited with code ${code}`;
          finish({ status: 'crashed', error: `rig exec ${how}${turnError ? `: ${turnError}` : ''}${stderr.trim() ? `\n${stderr.trim().slice(-1000)}` : ''}` });
        }
      });
    });
  }
}
