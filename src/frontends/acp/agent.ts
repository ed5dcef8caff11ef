// `rig acp`: the Agent Client Protocol (v1) served with @agentclientprotocol/sdk's agent app, as a
// thin adapter over the engine: session/new and session/load start or resume a thread,
// session/prompt runs a turn and streams its events as session/update, approvals become
// session/request_permission, session/cancel interrupts the turn (stopReason "cancelled"), and
// session/set_mode applies one of Codex's approval presets, session/set_config_option changes the
// model, reasoning effort, harness or approval mode from the next turn. A client offering fs/read_text_file
// and fs/write_text_file is asked for the files its buffers hold and gets the edits to write; one
// offering terminals runs the commands of a thread without a sandbox (danger-full-access) in them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, PROTOCOL_VERSION, RequestError, type AgentApp, type AgentContext, type ClientCapabilities, type ContentBlock, type InitializeResponse, type McpServer, type RequestPermissionRequest, type SessionUpdate } from '@agentclientprotocol/sdk';
import type { Engine } from '../../core/engine.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import { rigVersion } from '../../core/version.js';
import { CLIENT_TURNS_NO_TIMERS } from '../../core/timers/reasons.js';
import type { UserInput } from '../../protocol/index.js';
import { currentModeId, modeState, presetOf } from './modes.js';
import { configOptions, settingsFor } from './config-options.js';
import { AcpSession, type SessionOutput } from './session.js';
import { editorTerminals } from './terminals.js';
import { sessionMcpServers } from './mcp-servers.js';

export interface AcpAgentOptions {
  engine: Engine;
  /** `rig acp -c key=value`: applied to every session's thread. */
  config: readonly string[];
}

/** A prompt's content blocks as one engine input: text, links and embedded text, images by file. */
export function promptInput(blocks: readonly ContentBlock[]): UserInput {
  const texts: string[] = [];
  const images: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'resource_link':
        texts.push(`[${block.name}](${block.uri})`);
        break;
      case 'resource':
        if ('text' in block.resource) texts.push(`<context uri="${block.resource.uri}">\n${block.resource.text}\n</context>`);
        else texts.push(`[${block.resource.uri}](${block.resource.uri})`);
        break;
      case 'image': {
        const dir = mkdtempSync(join(tmpdir(), 'rig-acp-image-'));
        const file = join(dir, `image.${block.mimeType.split('/')[1] ?? 'png'}`);
        writeFileSync(file, Buffer.from(block.data, 'base64'));
        images.push(file);
        break;
      }
      case 'audio':
        throw RequestError.invalidParams(undefined, 'rig does not take audio input; send text or an image');
    }
  }
  return { text: texts.join('\n\n'), ...(images.length ? { images } : {}) };
}

export function acpAgent(options: AcpAgentOptions): { app: AgentApp; sessions: Map<string, AcpSession>; bind(client: AgentContext): void } {
  const { engine } = options;
  const sessions = new Map<string, AcpSession>();
  let client: AgentContext | undefined;
  const output: SessionOutput = {
    update: async (sessionId: string, update: SessionUpdate) => {
      await client?.notify('session/update', { sessionId, update });
    },
    askPermission: async (sessionId: string, request: Omit<RequestPermissionRequest, 'sessionId'>) => {
      if (!client) return undefined;
      const answer = await client.request('session/request_permission', { sessionId, ...request });
      return answer.outcome.outcome === 'selected' ? answer.outcome.optionId : undefined;
    },
  };
  engine.subscribe((envelope) => sessions.get(envelope.thread_id)?.onEvent(envelope));

  const session = (sessionId: string): AcpSession => {
    const found = sessions.get(sessionId);
    if (!found) throw RequestError.sessionNotFound(sessionId);
    return found;
  };
  const threadRequest = (cwd: string, mcpServers: readonly McpServer[] | undefined) => {
    const servers = sessionMcpServers(mcpServers);
    return { cwd, ...(options.config.length ? { config: [...options.config] } : {}), ...(servers.length ? { mcpServers: servers } : {}), canAskApproval: true, noTimers: CLIENT_TURNS_NO_TIMERS, originator: 'rig_acp' };
  };
  let capabilities: ClientCapabilities = {};
  // An editor that offers fs/* holds the files (unsaved buffers included): the agent's file tools
  // read workspace files through fs/read_text_file and write edits through fs/write_text_file,
  // after rig's own approval and sandbox checks.
  const attach = (handle: ThreadHandle): AcpSession => {
    const editor = client;
    const { readTextFile, writeTextFile } = capabilities.fs ?? {};
    if (editor && (readTextFile || writeTextFile)) {
      handle.useClientFiles({
        ...(writeTextFile
          ? {
              writeTextFile: async (path: string, content: string) => {
                await editor.request('fs/write_text_file', { sessionId: handle.id, path, content });
              },
            }
          : {}),
        ...(readTextFile ? { readTextFile: async (path: string) => (await editor.request('fs/read_text_file', { sessionId: handle.id, path })).content } : {}),
      });
    }
    if (editor && capabilities.terminal) handle.useClientTerminals(editorTerminals(editor, handle.id));
    const created = sessions.get(handle.id) ?? new AcpSession(handle, output);
    sessions.set(handle.id, created);
    return created;
  };
  const optionContext = { env: engine.env, home: engine.home };
  const failure = (error: unknown) => RequestError.invalidParams(undefined, error instanceof Error ? error.message : String(error));

  const app = agent({ name: 'rig' })
    .onRequest('initialize', ({ params }): InitializeResponse => {
      capabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: { loadSession: true, promptCapabilities: { image: true, audio: false, embeddedContext: true }, mcpCapabilities: { http: true, sse: false } },
        agentInfo: { name: 'rig', title: 'rig', version: rigVersion() },
        authMethods: [],
      };
    })
    .onRequest('session/new', async ({ params }) => {
      const handle = await engine.startThread(threadRequest(params.cwd, params.mcpServers)).catch((error: unknown) => {
        throw failure(error);
      });
      attach(handle);
      return { sessionId: handle.id, modes: modeState(handle.settings), configOptions: configOptions(handle, optionContext) };
    })
    .onRequest('session/load', async ({ params }) => {
      const handle = engine.thread(params.sessionId) ?? (await engine.resumeThread(params.sessionId, threadRequest(params.cwd, params.mcpServers)).catch((error: unknown) => {
        throw failure(error);
      }));
      const loaded = attach(handle);
      const read = engine.readThread(handle.id, { includeTurns: true });
      loaded.replay(read.turns ?? []);
      // The history is streamed before the response, as ACP asks.
      await loaded.flush();
      return { modes: modeState(handle.settings), configOptions: configOptions(handle, optionContext) };
    })
    .onRequest('session/prompt', async ({ params }) => {
      const target = session(params.sessionId);
      if (target.prompting) throw RequestError.invalidRequest(undefined, `session ${target.id} is already running a prompt; wait for it or send session/cancel`);
      const input = promptInput(params.prompt);
      target.prompting = true;
      try {
        const result = await target.handle.startTurn(input).done;
        await target.flush();
        if (result.status === 'interrupted') return { stopReason: 'cancelled' as const };
        if (result.status === 'failed') throw RequestError.internalError(undefined, result.error ?? 'the turn failed');
        return { stopReason: 'end_turn' as const };
      } finally {
        target.prompting = false;
      }
    })
    .onNotification('session/cancel', async ({ params }) => {
      const target = sessions.get(params.sessionId);
      if (target?.handle.isRunning) await target.handle.interrupt();
    })
    .onRequest('session/set_mode', async ({ params }) => {
      const target = session(params.sessionId);
      const preset = presetOf(params.modeId);
      if (!preset) throw RequestError.invalidParams(undefined, `unknown mode "${params.modeId}"; rig's modes are read-only, auto and full-access`);
      await target.handle.updateSettings({ approval_policy: preset.approval_policy, sandbox_mode: preset.sandbox_mode });
      await output.update(target.id, { sessionUpdate: 'current_mode_update', currentModeId: preset.id });
      await output.update(target.id, { sessionUpdate: 'config_option_update', configOptions: configOptions(target.handle, optionContext) });
      return {};
    })
    .onRequest('session/set_config_option', async ({ params }) => {
      const target = session(params.sessionId);
      const update = settingsFor(target.handle, params.configId, params.value, optionContext);
      await target.handle.updateSettings(update).catch((error: unknown) => {
        throw failure(error);
      });
      if (params.configId === 'mode') await output.update(target.id, { sessionUpdate: 'current_mode_update', currentModeId: currentModeId(target.handle.settings) });
      return { configOptions: configOptions(target.handle, optionContext) };
    });
  return { app, sessions, bind: (context) => (client = context) };
}
