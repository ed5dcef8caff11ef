// `rig exec`: one task, no prompts. Streams the answer (or JSONL events), exits 0 when the turn
// completes, 1 with a one-line reason when it fails, 130 when interrupted with Ctrl-C (143 on SIGTERM).
// A thin adapter over the engine: it starts (or resumes) one thread, runs one turn, renders events.
import { readFileSync, writeFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { isatty } from 'node:tty';
import { Engine, type ResumeTarget, type ThreadStartRequest } from '../../core/engine.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import { rigVersion } from '../../core/version.js';
import type { JsonSchema, ThreadEvent } from '../../protocol/index.js';
import { createHumanRenderer, renderHeader, type RunFacts } from './human.js';
import { childItemLine, createJsonlRenderer } from './jsonl.js';
import { resolvePrompt } from './prompt.js';

export interface ExecCommandInput {
  prompt: string | undefined;
  thread: ThreadStartRequest;
  resume?: ResumeTarget;
  json: boolean;
  color: 'always' | 'never' | 'auto';
  outputLastMessage?: string;
  outputSchemaFile?: string;
  images?: string[];
}

const EXIT_INTERRUPTED = 130;

export async function runExecCommand(input: ExecCommandInput): Promise<number> {
  const json = input.json;
  // Until the thread exists there is nothing to redact with; after that, every line is redacted.
  let redact: { out: (text: string) => string; err: (text: string) => string } = { out: (t) => t, err: (t) => t };
  const stdout = (text: string) => process.stdout.write(redact.out(text));
  const stderr = (text: string) => process.stderr.write(redact.err(text));
  const fail = (message: string): number => {
    if (json) stdout(`${JSON.stringify({ type: 'error', message })}\n`);
    stderr(`rig: ${message}\n`);
    return 1;
  };

  // Decorated output all goes to stderr; stdout carries only the answer, never coloured.
  const color = input.color === 'always' || (input.color !== 'never' && Boolean(process.stderr.isTTY) && !process.env['NO_COLOR']);
  // As codex exec: on a terminal the answer streams; into a pipe or file only the final answer goes.
  const stdoutIsTerminal = Boolean(process.stdout.isTTY);

  const engine = new Engine({ env: process.env, source: 'exec' });
  // Subscribed before the thread exists. What loading emits (thread.started, then the warnings) is
  // held until the thread is there: the redactor and the header need it.
  const held: ThreadEvent[] = [];
  let render: ((event: ThreadEvent) => void) | undefined;
  let rootId: string | undefined;
  engine.subscribe((envelope) => {
    // Sub-agents' threads: --json shows their finished items with their thread id; the root's
    // stream carries collab_agent_tool_call items about them.
    if (rootId !== undefined && envelope.thread_id !== rootId) {
      const line = json ? childItemLine(envelope.thread_id, envelope.event) : undefined;
      if (line) stdout(line);
      return;
    }
    if (render) render(envelope.event);
    else held.push(envelope.event);
  });

  let prompt: string;
  let thread: ThreadHandle;
  let outputSchema: JsonSchema | undefined;
  try {
    // isatty(0), not process.stdin.isTTY: making process.stdin opens a stream on the descriptor, and
    // for a file or /dev/null that loads Node's file-stream modules (~2-3 ms) before the first request.
    prompt = await resolvePrompt(input.prompt, isatty(0), (line) => stderr(`${line}\n`));
    if (input.outputSchemaFile) outputSchema = readOutputSchema(input.outputSchemaFile);
    thread = input.resume ? await engine.resumeThread(input.resume, input.thread) : await engine.startThread(input.thread);
  } catch (error) {
    await engine.close();
    return fail(error instanceof Error ? error.message : String(error));
  }
  rootId = thread.id;
  const { redactor } = thread;
  redact = { out: json ? (t) => redactor.redactJson(t) : (t) => redactor.redactText(t), err: (t) => redactor.redactText(t) };
  render = json
    ? createJsonlRenderer(stdout)
    : createHumanRenderer({ stdout, stderr, color, agentMessages: stdoutIsTerminal ? 'stream' : 'stderr', cwd: thread.settings.cwd, showTokens: true });
  // The human header comes before the warnings (thread.started itself prints nothing there).
  if (!json) stderr(renderHeader(runFacts(thread), color));
  for (const event of held.splice(0)) render(event);

  // Ctrl-C, and the SIGTERM an SDK client sends when its AbortSignal fires, end the turn through the
  // engine so running commands' process groups are killed on the way out (Node's default action
  // would exit at once and leave them running). A second signal exits immediately.
  let exitSignal: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (exitSignal) process.exit(exitCodeFor(exitSignal));
    exitSignal = signal;
    void thread.interrupt();
  };
  for (const signal of HANDLED_SIGNALS) process.on(signal, onSignal);

  // The verdict is printed after close(): closing kills what the turn left running, and those
  // commands' items complete then, before the final line.
  let verdict: () => number;
  try {
    // `/compact` is a turn of its own, as in codex exec's stream.
    const compacting = prompt.trim() === '/compact';
    const turn = compacting
      ? thread.compact()
      : thread.startTurn({ text: prompt, ...(input.images?.length ? { images: input.images } : {}) }, outputSchema ? { outputSchema } : {});
    const result = await turn.done;
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
      const problem = writeLastMessage(input.outputLastMessage, answer);
      verdict = () => (problem ? fail(problem) : 0);
    }
  } catch (error) {
    // The turn was refused before it began (an input over the length limit).
    const message = error instanceof Error ? error.message : String(error);
    verdict = () => fail(message);
  } finally {
    for (const signal of HANDLED_SIGNALS) process.off(signal, onSignal);
    await engine.close();
  }
  return verdict();
}

function runFacts(thread: ThreadHandle): RunFacts {
  const settings = thread.settings;
  return {
    version: rigVersion(),
    workdir: settings.cwd,
    model: settings.model,
    provider: thread.info.provider,
    harness: settings.harness,
    sandbox: settings.sandbox_mode,
    approvals: settings.approval_policy,
    sessionId: thread.id,
    ...(settings.reasoning_effort ? { reasoningEffort: settings.reasoning_effort } : {}),
  };
}

function readOutputSchema(path: string): JsonSchema {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`--output-schema ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  try {
    const schema = JSON.parse(text) as unknown;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error('not a JSON object');
    return schema as JsonSchema;
  } catch (error) {
    throw new Error(`--output-schema ${path}: not a JSON Schema object (${(error as Error).message})`);
  }
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
