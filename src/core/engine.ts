// The engine: one thread manager under every front end. It owns RIG_HOME, the thread index, the
// model clients, and every loaded thread; front ends start, resume and fork threads here, then
// drive each through its ThreadHandle and read one event stream (per thread, or engine-wide).
import { resolve as resolvePath } from 'node:path';
import type { EventEnvelope } from '../protocol/index.js';
import { resolveRigHome } from '../config/index.js';
import type { ModelClient } from '../model/types.js';
import { createModelClient, type ProviderInfo } from '../model/index.js';
import { newThreadId, createRedactor, type ListThreadsOptions, type ThreadRow } from '../store/index.js';
import type { EngineOptions, ForkRequest, ThreadRead, ThreadStartRequest, ThreadSummary } from './engine-types.js';
import { EventHub, type EnvelopeListener } from './event-hub.js';
import { Thread } from './thread.js';
import { ThreadHandle, type ThreadInfo } from './thread-handle.js';
import { resolveThreadSettings, REPLAY_PROVIDER_ID, type RecordedSettings, type ThreadSettings } from './thread-settings.js';
import { loadThreadConfig } from './thread-config.js';
import { closeDanglingCalls, initialContext, recordedSettings } from './thread-load.js';
import { buildRuntime, ThreadResources, type BuiltRuntime } from './thread-runtime.js';
import { openThreadRollout, type OpenedRollout } from './thread-rollout.js';
import { SUBAGENT_NO_TIMERS } from './timers/index.js';
import { loadExecPolicy } from './safety.js';
import { collectSessionSecrets } from './secrets.js';
import { loadRollout, locateRollout, type ResumeTarget, type ResumedThread } from './session-resume.js';
import { projectConversation, projectRollout } from './history-view.js';
import { rigVersion } from './version.js';
import { resolveSessionMcpServers } from './session-mcp.js';
import { AgentsService } from './agents/service.js';
import { openThreadMcp } from '../tools/mcp/session.js';
import { recordMcpCalls } from './mcp-record.js';
import { fireSessionStart, setupExtensions } from './extension-setup.js';
import { loadThreadSkills } from './skills-setup.js';
import { ThreadWorktrees } from './worktree/session.js';
import { resumeWorktree } from './worktree/resume.js';

export type { ResumeTarget } from './session-resume.js';
export { closeDanglingCalls } from './thread-load.js';

export type { EngineOptions, ForkRequest, HistoryTurn, ThreadRead, ThreadSeed, ThreadStartRequest, ThreadSummary } from './engine-types.js';

export class Engine {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  private readonly hub = new EventHub();
  private readonly threads = new Map<string, ThreadHandle>();
  private readonly clients = new Map<string, Promise<ModelClient>>();
  /** Sub-agents: child threads of this engine, spawned by the threads' tools. */
  readonly agents: AgentsService;

  constructor(private readonly options: EngineOptions = {}) {
    this.env = options.env ?? process.env;
    this.home = options.home ?? resolveRigHome(this.env);
    this.agents = new AgentsService(this);
  }

  /** Every loaded thread's events, in emission order per thread. */
  subscribe(listener: EnvelopeListener): () => void {
    return this.hub.subscribe(listener);
  }

  /** A loaded thread, if this engine holds it. */
  thread(id: string): ThreadHandle | undefined {
    return this.threads.get(id);
  }

  get loadedThreads(): ThreadHandle[] {
    return [...this.threads.values()];
  }

  startThread(request: ThreadStartRequest): Promise<ThreadHandle> {
    return this.load(request, undefined);
  }

  /** Reload a stored thread (by id or prefix, or the latest); a thread already loaded here is returned as is. */
  async resumeThread(target: ResumeTarget | string, request: ThreadStartRequest): Promise<ThreadHandle> {
    const locator = typeof target === 'string' ? { id: target } : target;
    if (locator.id && this.threads.has(locator.id)) return this.threads.get(locator.id)!;
    const located = locateRollout(this.home, locator, this.baseDir(request));
    const loaded = this.threads.get(located.threadId);
    if (loaded) return loaded;
    return this.load(request, { kind: 'resume', resumed: loadRollout(located.path, located.threadId) });
  }

  /** A new thread seeded with a copy of another's history (through `atTurn`, inclusive). */
  async forkThread(target: ResumeTarget | string, request: ForkRequest): Promise<ThreadHandle> {
    const locator = typeof target === 'string' ? { id: target } : target;
    const located = locateRollout(this.home, locator, this.baseDir(request));
    return this.load(request, { kind: 'fork', resumed: loadRollout(located.path, located.threadId), ...(request.atTurn ? { atTurn: request.atTurn } : {}) });
  }

  /** Stored threads, newest first, from the SQLite index (which repairs itself from the rollouts). */
  async listThreads(filter: ListThreadsOptions = {}): Promise<ThreadSummary[]> {
    const { openThreadCatalog } = await import('./catalog.js');
    const catalog = await openThreadCatalog(this.home);
    try {
      return catalog.listThreads(filter);
    } finally {
      catalog.close();
    }
  }

  /**
   * A stored (or loaded) thread's recorded settings and, with `includeTurns`, its turns as display
   * items. Reads the rollout alone: the provider it ran with need not be configured, nor its key
   * set. `target` is an id (or unique prefix), or `{last, all?}` (the latest thread in `cwd`).
   */
  readThread(target: string | ResumeTarget, options: { includeTurns?: boolean; cwd?: string } = {}): ThreadRead {
    const locator = typeof target === 'string' ? { id: target } : target;
    const id = locator.id ?? locateRollout(this.home, locator, resolvePath(options.cwd ?? process.cwd())).threadId;
    const loaded = this.threads.get(id);
    if (loaded && !loaded.info.rolloutPath) {
      const settings = loaded.settings;
      return {
        id,
        cwd: settings.cwd,
        model: settings.model,
        modelProvider: settings.model_provider,
        harness: settings.harness,
        warnings: [],
        ...(options.includeTurns ? { turns: projectConversation(loaded.history) } : {}),
      };
    }
    const located = loaded?.info.rolloutPath ? { path: loaded.info.rolloutPath, threadId: id } : locateRollout(this.home, { id }, this.home);
    const resumed = loadRollout(located.path, located.threadId);
    const context = resumed.turnContext;
    const meta = resumed.meta;
    const cwd = resumed.workingDirectory ?? context?.cwd ?? meta?.cwd;
    const model = context?.model ?? meta?.model;
    const provider = context?.model_provider ?? meta?.model_provider;
    const harness = context?.harness ?? meta?.harness;
    return {
      id: located.threadId,
      rolloutPath: located.path,
      ...(cwd ? { cwd } : {}),
      ...(model ? { model } : {}),
      ...(provider ? { modelProvider: provider } : {}),
      ...(harness ? { harness } : {}),
      ...(meta?.forked_from_id ? { forkedFrom: meta.forked_from_id } : {}),
      warnings: resumed.warnings,
      ...(options.includeTurns ? { turns: projectRollout(resumed.records) } : {}),
    };
  }

  /** Hide a thread from listings (its rollout moves to archived_sessions/); a loaded one is closed first. */
  async archiveThread(id: string): Promise<ThreadSummary> {
    return this.withCatalog(id, (catalog, row) => catalog.setArchived(row.id, true));
  }

  async unarchiveThread(id: string): Promise<ThreadSummary> {
    return this.withCatalog(id, (catalog, row) => catalog.setArchived(row.id, false));
  }

  /** Delete a thread's rollout for good. */
  async deleteThread(id: string): Promise<ThreadSummary> {
    return this.withCatalog(id, (catalog, row) => {
      catalog.deleteThread(row.id);
      return row;
    });
  }

  /** Close every loaded thread (their processes die with them). */
  async close(): Promise<void> {
    await Promise.all([...this.threads.values()].map((thread) => thread.close()));
  }

  private async withCatalog(id: string, body: (catalog: import('../store/index.js').ThreadIndex, row: ThreadRow) => ThreadRow): Promise<ThreadRow> {
    const { openThreadCatalog } = await import('./catalog.js');
    const catalog = await openThreadCatalog(this.home);
    try {
      const row = catalog.findThread(id);
      if (!row) throw new Error(`no thread with id ${id} under ${this.home}; see \`rig sessions list --all\` (add --archived for archived ones)`);
      await this.threads.get(row.id)?.close();
      return body(catalog, row);
    } finally {
      catalog.close();
    }
  }

  private baseDir(request: ThreadStartRequest): string {
    return request.cd ? resolvePath(request.cwd, request.cd) : resolvePath(request.cwd);
  }

  private client(provider: ProviderInfo, settings: ThreadSettings): Promise<ModelClient> {
    if (this.options.modelClient) return Promise.resolve(this.options.modelClient(provider, settings));
    if (provider.id === REPLAY_PROVIDER_ID) {
      const file = settings.replayFile;
      if (!file) return Promise.reject(new Error('the replay provider needs a recording: pass --replay FILE or set replay_file in config.toml'));
      // Each thread replays its recording from the start.
      return import('../model/replay.js').then(({ ReplayClient }) => new ReplayClient(file));
    }
    const key = `${provider.id}\u0000${provider.base_url}\u0000${provider.wire_api}`;
    let client = this.clients.get(key);
    if (!client) {
      client = createModelClient(provider, { env: this.env });
      client.catch(() => this.clients.delete(key));
      this.clients.set(key, client);
    }
    return client;
  }

  private async load(
    request: ThreadStartRequest,
    source: { kind: 'resume' | 'fork'; resumed: ResumedThread; atTurn?: string } | undefined,
  ): Promise<ThreadHandle> {
    const env = this.env;
    const resumed = source?.resumed;
    const recorded: RecordedSettings = recordedSettings(resumed);
    const worktree = source ? resumeWorktree(resumed!.worktree, source.kind, request.cd !== undefined ? resolvePath(request.cwd, request.cd) : undefined) : { leave: false };
    if (worktree.cwd !== undefined) recorded.cwd = worktree.cwd;
    // A resumed thread keeps its directory unless the request names another; config is read there.
    const loaded = loadThreadConfig(this.home, env, request, recorded.cwd);
    const overrides = request.overrides ?? {};
    const config = loaded.config;
    const cwd = loaded.cwd;
    const warnings = [...loaded.warnings];
    if (overrides.yolo) warnings.push('running with --dangerously-bypass-approvals-and-sandbox: commands run WITHOUT a sandbox and WITHOUT asking');
    if (resumed) warnings.push(...resumed.warnings);
    if (worktree.warning) warnings.push(worktree.warning);

    const settings = resolveThreadSettings(config, cwd, overrides, recorded);
    const threadId = source?.kind === 'resume' ? resumed!.threadId : newThreadId();
    if (this.threads.has(threadId)) return this.threads.get(threadId)!;
    const rules = await loadExecPolicy({ config, cwd, home: this.home, env, ignoreRules: Boolean(request.ignoreRules) });
    const resources = new ThreadResources(threadId, rules.policy);
    // MCP servers start with the thread, all at once, while the rest of it is built.
    resources.mcp = openThreadMcp({
      servers: request.mcpServers?.length ? { ...config.mcp_servers, ...resolveSessionMcpServers(request.mcpServers) } : config.mcp_servers,
      cwd,
      env,
      configFiles: loaded.files,
      scope: resources.scope,
      clientInfo: { name: 'rig', version: rigVersion() },
      home: this.home,
    });
    const rebuild = (next: ThreadSettings) =>
      buildRuntime({ config, home: this.home, env, resources, client: (p, s) => this.client(p, s), subagent: request.agent !== undefined, ...noTimers(request) }, next).then((b) => this.agents.attach(threadId, b, config, request, this.home));
    let built: BuiltRuntime;
    try {
      built = await rebuild(settings);
      // A required server that failed stops the start (McpStartupError says which, with its stderr).
      await resources.mcp?.started;
    } catch (error) {
      await resources.close();
      throw error;
    }
    warnings.push(...built.safety.sandbox.warnings, ...rules.warnings, ...built.notices, ...(built.agents?.warnings ?? []));

    // Every secret rig knows of is redacted from the rollout, and from what front ends print.
    const secrets = collectSessionSecrets(config, env, built.provider).values;
    let opened: OpenedRollout;
    try {
      opened = openThreadRollout({ request, source, home: this.home, threadId, secrets, env, cwd, config, built, ...(this.options.source ? { engineSource: this.options.source } : {}) });
    } catch (error) {
      await resources.close();
      throw error;
    }
    const { recorder, history, goal, firstTurn } = opened;

    // Hooks, checkpoints and skills; their notices become warning items once the thread exists.
    const skills = await loadThreadSkills({ config, home: this.home, cwd });
    resources.skills = skills.skills;
    warnings.push(...skills.warnings);
    let notice = (text: string): void => void warnings.push(text);
    const extras = setupExtensions(
      {
        config,
        home: this.home,
        cwd,
        env,
        threadId,
        resources,
        built,
        ...(recorder ? { rolloutPath: recorder.path } : {}),
        ...(request.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
        ...(this.options.source ? { client: this.options.source } : {}),
        mentionItems: skills.mentionItems,
      },
      (text) => notice(text),
    );
    warnings.push(...extras.warnings);
    const thread = new Thread({
      extensions: extras.extensions,
      id: threadId,
      cwd,
      runtime: built.runtime,
      ...(history ? { history: closeDanglingCalls(history) } : {}),
      initialContext: resumed ? [] : [...initialContext(config, cwd, this.home, env, built), ...(skills.contextItem ? [skills.contextItem] : [])],
      ...(recorder ? { recorder } : {}),
      firstTurn,
      canAskApproval: request.canAskApproval ?? true,
      ...(goal ? { goal } : {}),
    });
    if (source?.kind === 'resume' && resumed?.totalUsage) thread.usage = resumed.totalUsage;
    // A sub-agent forked from its parent's history still gets its role's instructions.
    const roleInstructions = request.agent?.developerInstructions;
    if (source?.kind === 'fork' && roleInstructions) {
      thread.append({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: roleInstructions }] });
    }

    const info: ThreadInfo = {
      id: threadId,
      ...(source?.kind === 'fork' ? { forkedFrom: resumed!.threadId } : {}),
      ...(recorder ? { rolloutPath: recorder.path } : resumed && source?.kind === 'resume' ? { rolloutPath: resumed.path } : {}),
      warnings,
      wire: built.runtime.client.wire,
      provider: { id: built.provider.id, name: built.provider.name },
    };
    const handle = new ThreadHandle({
      thread,
      info,
      config,
      overrides,
      recorded,
      settings,
      built,
      resources,
      rebuild,
      ...(source?.kind === 'resume' && resumed?.threadName ? { name: resumed.threadName } : {}),
      redactor: createRedactor(secrets),
      closeRecorder: () => recorder?.close(),
      onClosed: () => {
        if (this.threads.get(threadId) === handle) this.threads.delete(threadId);
        unforward();
      },
    });
    resources.worktrees = new ThreadWorktrees(
      {
        move: async (to) => void (await handle.moveWorkspace(to)),
        record: (state) => recorder?.worktreeChanged(state),
        readOnly: () => handle.settings.sandbox_mode === 'read-only',
      },
      worktree.state,
    );
    if (worktree.leave) recorder?.worktreeChanged(null);
    this.threads.set(threadId, handle);
    resources.timers.attach(handle);
    const unforward = thread.subscribe((envelope: EventEnvelope) => this.hub.emit(envelope));
    handle.emitThreadEvent(source?.kind === 'resume' ? { type: 'thread.resumed', thread_id: threadId } : { type: 'thread.started', thread_id: threadId });
    if (resources.mcp) {
      recordMcpCalls((listener) => thread.subscribe(listener), recorder);
      resources.mcp.attach((event) => handle.emitThreadEvent(event));
    }
    for (const warning of warnings) {
      handle.emitThreadEvent({ type: 'item.completed', item: { id: handle.newItemId(), type: 'error', message: warning } });
    }
    notice = (text: string): void => thread.emit({ type: 'item.completed', item: { id: thread.newItemId(), type: 'error', message: text } });
    extras.hooks.attach((turnId, event) => thread.emitFor(turnId, event));
    const started = await fireSessionStart(extras.hooks, source?.kind === 'resume' ? 'resume' : 'startup');
    if (started.stop !== undefined) {
      await handle.close();
      throw new Error(`a SessionStart hook ended the session: ${started.stop}`);
    }
    return handle;
  }
}

/** Why a thread started by `request` cannot keep timers, if it cannot. */
function noTimers(request: ThreadStartRequest): { noTimers?: string } {
  if (request.noTimers !== undefined) return { noTimers: request.noTimers };
  if (request.agent) return { noTimers: SUBAGENT_NO_TIMERS };
  return {};
}
