// `rig exec`: one task, no prompts. Streams the answer (or JSONL events), exits 0 when the turn
// completes, 1 with a one-line reason when it fails, 130 when interrupted with Ctrl-C (143 on SIGTERM).
import { writeFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { openSession, type ResumeTarget, type Session } from '../../core/session.js';
import type { SessionFlags } from '../../core/settings.js';
import { createHumanRenderer, renderHeader } from './human.js';
import { rigVersion } from '../../core/version.js';
import { createJsonlRenderer } from './jsonl.js';
import { resolvePrompt } from './prompt.js';

export interface ExecCommandInput {
  prompt: string | undefined;
  flags: SessionFlags;
  resume?: ResumeTarget;
}

const EXIT_INTERRUPTED = 130;

export async function runExecCommand(input: ExecCommandInput): Promise<number> {
  const json = Boolean(input.flags.json || input.flags.experimentalJson);
  // Until the session exists there is nothing to redact with; after that, every line is redacted.
  let redact: { out: (text: string) => string; err: (text: string) => string } = { out: (t) => t, err: (t) => t };
  const stdout = (text: string) => process.stdout.write(redact.out(text));
  const stderr = (text: string) => process.stderr.write(redact.err(text));
  const fail = (message: string): number => {
    if (json) stdout(`${JSON.stringify({ type: 'error', message })}\n`);
    stderr(`rig: ${message}\n`);
    return 1;
  };

  let prompt: string;
  let session: Session;
  try {
    prompt = await resolvePrompt(input.prompt, Boolean(process.stdin.isTTY), (line) => stderr(`${line}\n`));
    session = await openSession({ flags: input.flags, env: process.env, processCwd: process.cwd(), mode: 'exec', resume: input.resume });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const { redactor } = session;
  redact = { out: json ? (t) => redactor.redactJson(t) : (t) => redactor.redactText(t), err: (t) => redactor.redactText(t) };

  // Decorated output all goes to stderr; stdout carries only the answer, never coloured.
  const color = input.flags.color === 'always' || (input.flags.color !== 'never' && Boolean(process.stderr.isTTY) && !process.env['NO_COLOR']);
  // As codex exec: on a terminal the answer streams; into a pipe or file only the final answer goes.
  const stdoutIsTerminal = Boolean(process.stdout.isTTY);
  const render = json
    ? createJsonlRenderer(stdout)
    : createHumanRenderer({ stdout, stderr, color, agentMessages: stdoutIsTerminal ? 'stream' : 'stderr', cwd: session.cwd, showTokens: true });
  // thread.started is always the first event of the stream; config warnings follow as error items.
  render({ type: 'thread.started', thread_id: session.thread.id });
  if (!json) stderr(renderHeader(runFacts(session), color));
  for (const warning of session.warnings) {
    if (json) render({ type: 'item.completed', item: { id: session.thread.newItemId(), type: 'error', message: warning } });
    else stderr(`warning: ${warning}\n`);
  }
  // `/compact` is a turn of its own in codex exec's stream; rig frames it here, once.
  const compacting = prompt.trim() === '/compact';
  session.thread.subscribe((event) => {
    if (compacting && (event.type === 'turn.started' || event.type === 'turn.completed' || event.type === 'turn.failed')) return;
    render(event);
  });
  // exec never prompts: anything that still asks for approval is declined.
  session.thread.subscribe((event) => {
    if (event.type === 'approval.requested') session.thread.answerApproval(event.request.id, 'deny');
  });

  // Ctrl-C, and the SIGTERM an SDK client sends when its AbortSignal fires, end the turn through the
  // thread so running commands' process groups are killed on the way out (Node's default action
  // would exit at once and leave them running). A second signal exits immediately.
  let exitSignal: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (exitSignal) process.exit(exitCodeFor(exitSignal));
    exitSignal = signal;
    session.thread.interrupt();
  };
  for (const signal of HANDLED_SIGNALS) process.on(signal, onSignal);

  // The verdict is printed after close(): closing kills what the turn left running, and those
  // commands' items complete then, before the final line.
  let verdict: () => number;
  try {
    if (compacting) render({ type: 'turn.started' });
    const result = compacting
      ? await session.compact()
      : await session.thread.runTurn({ text: prompt, images: session.images }, session.outputSchema ? { outputSchema: session.outputSchema } : {});
    if (compacting && result.status === 'completed') render({ type: 'turn.completed', usage: result.usage });
    if (compacting && result.status === 'failed') render({ type: 'turn.failed', error: { message: result.error ?? 'compaction failed' } });
    if (result.status === 'failed') {
      // --json already carried the error and turn.failed.
      verdict = () => (json ? 1 : fail(result.error ?? 'turn failed'));
    } else if (result.status === 'interrupted' || exitSignal) {
      const code = exitCodeFor(exitSignal ?? 'SIGINT');
      verdict = () => {
        if (!json) stderr('rig: interrupted\n');
        return code;
      };
    } else {
      const answer = result.lastAgentMessage;
      if (!json && !stdoutIsTerminal && !compacting && answer) stdout(answer.endsWith('\n') ? answer : `${answer}\n`);
      const problem = writeLastMessage(input.flags.outputLastMessage, answer);
      verdict = () => (problem ? fail(problem) : 0);
    }
  } finally {
    for (const signal of HANDLED_SIGNALS) process.off(signal, onSignal);
    await session.close();
  }
  return verdict();
}

function runFacts(session: Session): Parameters<typeof renderHeader>[0] {
  const effort = session.config.model_reasoning_effort;
  return {
    version: rigVersion(),
    workdir: session.cwd,
    model: session.model,
    provider: { id: session.provider.id, name: session.provider.name },
    harness: session.harness,
    sandbox: session.sandboxMode,
    approvals: session.approvalPolicy,
    sessionId: session.thread.id,
    ...(effort ? { reasoningEffort: effort } : {}),
  };
}

/** -o FILE: the last agent message of a completed turn (empty when there was none); the problem, if any. */
function writeLastMessage(file: string | undefined, text: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    writeFileSync(file, text ?? '');
    return undefined;
  } catch (error) {
    return `cannot write --output-last-message ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
}

const HANDLED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The shell convention, 128 + signal number: 130 for Ctrl-C. */
function exitCodeFor(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? EXIT_INTERRUPTED : 128 + (osConstants.signals[signal] ?? 15);
}
