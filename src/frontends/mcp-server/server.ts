// `rig mcp-server`: rig as an MCP server over stdio, on the engine API. Each `rig` call starts a
// thread and runs one turn; `rig-reply` runs another turn on a thread this server holds (or one
// stored under RIG_HOME). While a turn runs, its events go to the client as progress
// notifications (when the call carried a progressToken); an approval the turn needs is asked
// through elicitation (accept = approve, decline = deny, cancel = stop the turn), and a client
// without elicitation gets rig exec's behaviour: nothing that needs a person runs. The result is
// the final message as text, and {threadId, content} as structured content (Codex's shape).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Engine } from '../../core/engine.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import { rigVersion } from '../../core/version.js';
import { answerFromStrings, type ApprovalAnswer, type ApprovalDecision, type ApprovalRequest, type EventEnvelope, type ThreadEvent } from '../../protocol/index.js';
import { describeApproval } from '../approval-format.js';
import { parseReplyCall, parseRigCall, RIG_TOOL, TOOL_ALIASES, TOOL_DEFINITIONS, ToolInputError } from './tools.js';

/** An approval waits for a person: no request timeout of the SDK's may cut it short. */
const PERSON_TIMEOUT_MS = 2_147_483_647;

export interface McpServerOptions {
  engine: Engine;
  /** Where relative `cwd` arguments resolve, and the default cwd. */
  cwd: string;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

type CallResult = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

interface CallExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;
}

/** Runs until the client closes stdin; resolves after every thread is closed. */
export async function runMcpServer(options: McpServerOptions): Promise<void> {
  const [{ Server }, { StdioServerTransport }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const server = new Server({ name: 'rig', version: rigVersion() }, { capabilities: { tools: {} } });
  const engine = options.engine;
  const tempFiles: string[] = [];

  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: TOOL_DEFINITIONS.map((tool) => ({ ...tool })) as never }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra): Promise<CallResult> => {
    const tool = TOOL_ALIASES[request.params.name];
    if (!tool) return failure(`unknown tool "${request.params.name}": rig mcp-server offers rig and rig-reply (codex and codex-reply are accepted too)`);
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const canAsk = Boolean(server.getClientCapabilities()?.elicitation);
    try {
      let thread: ThreadHandle;
      let prompt: string;
      if (tool === RIG_TOOL) {
        const call = parseRigCall(args, options.cwd, canAsk);
        if (call.baseInstructions !== undefined) {
          const file = writeInstructions(call.baseInstructions);
          tempFiles.push(file);
          call.request.config = [...(call.request.config ?? []), `model_instructions_file=${JSON.stringify(file)}`];
        }
        thread = await engine.startThread(call.request);
        prompt = call.prompt;
      } else {
        const call = parseReplyCall(args);
        thread = engine.thread(call.threadId) ?? (await engine.resumeThread(call.threadId, { cwd: options.cwd, canAskApproval: canAsk }));
        prompt = call.prompt;
      }
      return await runTurn(thread, prompt, extra as unknown as CallExtra, (req, signal) => askThroughElicitation(server, req, signal));
    } catch (error) {
      if (error instanceof ToolInputError) return failure(`invalid arguments for ${request.params.name}: ${error.message}`);
      return failure(error instanceof Error ? error.message : String(error));
    }
  });

  const transport = new StdioServerTransport(
    (options.input ?? process.stdin) as NodeJS.ReadStream & import('node:stream').Readable,
    (options.output ?? process.stdout) as NodeJS.WriteStream & import('node:stream').Writable,
  );
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    (options.input ?? process.stdin).once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await engine.close();
  await server.close().catch(() => undefined);
  for (const file of tempFiles) fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

function failure(message: string): CallResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function writeInstructions(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-mcp-server-'));
  const file = path.join(dir, 'base-instructions.md');
  fs.writeFileSync(file, text);
  return file;
}

type Ask = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;

/** One turn: events streamed as progress, approvals asked, the final message returned. */
async function runTurn(thread: ThreadHandle, prompt: string, extra: CallExtra, ask: Ask): Promise<CallResult> {
  const token = extra._meta?.progressToken;
  let progress = 0;
  // The result must not overtake the progress sent before it (the client drops late progress).
  const sent: Promise<void>[] = [];
  const questions = new AbortController();
  const off = thread.subscribe((envelope: EventEnvelope) => {
    const event = envelope.event;
    if (token !== undefined) {
      const message = progressMessage(event);
      if (message !== undefined) {
        sent.push(
          extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++progress, message } }).catch(() => undefined),
        );
      }
    }
    if (event.type === 'approval.requested') {
      const request = event.request;
      void ask(request, questions.signal).then(
        (answer) => answerIfOpen(thread, request.id, answer),
        () => answerIfOpen(thread, request.id, { decision: 'abort' }),
      );
    }
  });
  const onCancel = () => void thread.interrupt();
  extra.signal.addEventListener('abort', onCancel, { once: true });
  try {
    const result = await thread.startTurn({ text: prompt }).done;
    await Promise.all(sent);
    const content = result.lastAgentMessage ?? '';
    const structuredContent = { threadId: thread.id, content };
    if (result.status === 'completed') return { content: [{ type: 'text', text: content }], structuredContent };
    const why = result.status === 'interrupted' ? 'the turn was interrupted' : `the turn failed: ${result.error ?? 'no reason given'}`;
    return { content: [{ type: 'text', text: content ? `${content}\n\n(${why})` : why }], structuredContent: { ...structuredContent, error: why }, isError: true };
  } finally {
    off();
    questions.abort();
    extra.signal.removeEventListener('abort', onCancel);
  }
}

function answerIfOpen(thread: ThreadHandle, id: string, answer: ApprovalAnswer): void {
  try {
    thread.answerApproval(id, answer.decision, {
      ...(answer.feedback ? { feedback: answer.feedback } : {}),
      ...(answer.content ? { content: answer.content } : {}),
    });
  } catch {
    // The turn ended (or was interrupted) before the person answered.
  }
}

/** A line per event worth showing while the turn runs. */
function progressMessage(event: ThreadEvent): string | undefined {
  switch (event.type) {
    case 'turn.started':
      return 'turn started';
    case 'item.started':
      if (event.item.type === 'command_execution') return `$ ${event.item.command}`;
      if (event.item.type === 'mcp_tool_call') return `mcp ${event.item.server}.${event.item.tool}`;
      return undefined;
    case 'item.completed':
      if (event.item.type === 'agent_message') return event.item.text;
      if (event.item.type === 'file_change') return `changed ${event.item.changes.map((c) => c.path).join(', ')}`;
      if (event.item.type === 'error') return `warning: ${event.item.message}`;
      return undefined;
    case 'approval.requested':
      return 'waiting for approval';
    case 'mcp.server_status':
      return `mcp server ${event.server} ${event.status}`;
    default:
      return undefined;
  }
}

/** The decisions a client may pick in the form (accept without one approves once). */
const DECISIONS: ApprovalDecision[] = ['approve', 'approve_for_session', 'deny', 'abort'];

interface ElicitingServer {
  elicitInput(
    params: { message: string; requestedSchema: { type: 'object'; properties: Record<string, never> } | Record<string, unknown> },
    options?: { timeout?: number; signal?: AbortSignal },
  ): Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }>;
}

async function askThroughElicitation(server: unknown, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
  const eliciting = server as ElicitingServer;
  const options = { timeout: PERSON_TIMEOUT_MS, signal };
  if (request.kind === 'mcp_elicitation') {
    // A server of the thread asks: its own form goes to our client as it is.
    const answer = await eliciting.elicitInput(
      { message: `${request.server} asks: ${request.message}`, requestedSchema: request.requested_schema ?? { type: 'object', properties: {} } },
      options,
    );
    if (answer.action === 'accept') return { decision: 'approve', ...(answer.content ? { content: answer.content } : {}) };
    return { decision: answer.action === 'decline' ? 'deny' : 'abort' };
  }
  if (request.kind === 'user_input') {
    // The model's questions become one form field each; a typed value that is no choice's label is the person's own answer.
    const answer = await eliciting.elicitInput({ message: `${request.tool}: the agent asks`, requestedSchema: userInputForm(request) }, options);
    if (answer.action !== 'accept') return { decision: answer.action === 'decline' ? 'deny' : 'abort' };
    const answers: Record<string, unknown> = {};
    for (const question of request.questions) {
      const value = answer.content?.[question.id];
      if (typeof value !== 'string' || value.trim() === '') continue;
      answers[question.id] = answerFromStrings(question, question.multi_select ? value.split(',').map((part) => part.trim()) : [value]);
    }
    return { decision: 'approve', content: answers };
  }
  const answer = await eliciting.elicitInput(
    {
      message: describeApproval(approvalView(request), { color: false }),
      requestedSchema: {
        type: 'object',
        properties: {
          decision: { type: 'string', enum: DECISIONS, description: 'approve (default), approve_for_session, deny, or abort (stop the turn)' },
          feedback: { type: 'string', description: 'With deny: what the agent should do instead.' },
        },
      },
    },
    options,
  );
  if (answer.action === 'decline') return { decision: 'deny' };
  if (answer.action === 'cancel') return { decision: 'abort' };
  const picked = answer.content?.['decision'];
  const decision = DECISIONS.includes(picked as ApprovalDecision) ? (picked as ApprovalDecision) : 'approve';
  const feedback = typeof answer.content?.['feedback'] === 'string' ? answer.content['feedback'] : undefined;
  return { decision, ...(decision === 'deny' && feedback ? { feedback } : {}) };
}

function userInputForm(request: Extract<ApprovalRequest, { kind: 'user_input' }>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const question of request.questions) {
    const labels = question.options.map((option) => option.label);
    const how = `${question.multi_select ? 'one or more of (comma-separated)' : 'one of'}: ${labels.join(', ')}${question.allow_other ? ', or your own answer' : ''}`;
    properties[question.id] = { type: 'string', title: question.question, description: how };
  }
  return { type: 'object', properties };
}

function approvalView(request: Exclude<ApprovalRequest, { kind: 'mcp_elicitation' | 'user_input' }>): Parameters<typeof describeApproval>[0] {
  switch (request.kind) {
    case 'exec':
      return {
        kind: 'exec',
        command: request.command,
        cwd: request.cwd,
        sandboxed: request.sandboxed,
        ...(request.reason ? { reason: request.reason } : {}),
        ...(request.retry_without_sandbox ? { unsandboxedRetry: { denial: request.sandbox_denial ?? 'blocked' } } : {}),
      };
    case 'file_change':
      return { kind: 'file_change', changes: request.changes, ...(request.reason ? { reason: request.reason } : {}) };
    case 'mcp_tool_call':
      return { kind: 'mcp_tool_call', server: request.server, tool: request.tool, arguments: request.arguments, ...(request.reason ? { reason: request.reason } : {}) };
    case 'network':
      return {
        kind: 'network',
        url: request.url,
        host: request.host,
        purpose: request.purpose,
        sandboxed: request.sandboxed,
        ...(request.from ? { from: request.from } : {}),
        ...(request.reason ? { reason: request.reason } : {}),
      };
  }
}
