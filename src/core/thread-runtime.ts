// Builds what a thread samples and acts with from its config and settings: the provider's model
// client, the harness (prompt, tools, request shaping), the safety settings and orchestrator, and
// compaction. Rebuilt whenever settings change; what the thread owns across rebuilds (processes,
// sessions, approvals given for the session, its exec-policy rules) lives in ThreadResources.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { resolveAgents, type AgentsSettings, type RigConfig } from '../config/index.js';
import type { ModelClient } from '../model/types.js';
import { resolveProvider, type ProviderInfo } from '../model/index.js';
import { autoCompactLimit } from '../context/index.js';
import { detectUserShell } from '../exec/shell.js';
import { ProcessScope } from '../exec/process-groups.js';
import { prewarmSandbox } from '../exec/sandbox/index.js';
import { refillSandboxesWhileWaiting } from './sandbox-refill.js';
import { UnifiedExecManager } from '../exec/unified-exec.js';
import { ApprovalCache, ExecPolicy } from '../policy/index.js';
import { createOrchestrator } from '../tools/orchestrator/index.js';
import type { ClientFileSystem, ClientTerminals } from '../protocol/index.js';
import type { ThreadMcp } from '../tools/mcp/session.js';
import { withMcpTools } from '../tools/mcp/registry.js';
import type { CapabilitiesFactory, SearchOptions } from '../tools/spec.js';
import type { ThreadRuntime } from './thread.js';
import { REPLAY_PROVIDER_ID, type ThreadSettings } from './thread-settings.js';
import { PROCESS_SCOPE_VAR, processScopeToken, safetyFromConfig, type SafetySettings } from './safety.js';
import { setupHarness, type HarnessSetup } from './session-harness.js';
import { compactThread, userMessageBudget } from './compaction.js';
import { permissionModeFor, type HookSessionFacts, type ThreadHooks } from './hook-points.js';
import { fireSessionStart } from './extension-setup.js';
import { resolveWebSearch, type ResolvedWebSearch } from '../web/index.js';
import { setupSearch } from './search-setup.js';
import { createSideSearch, type SideSearch } from './provider-web-search.js';
import type { ThreadCheckpoints } from './checkpointing.js';
import type { SkillMetadata } from '../skills/index.js';
import type { WorktreeCapability } from '../tools/worktree/capability.js';
import type { Thread, TurnResult } from './thread.js';
import { ThreadTimers, timerLimits, timersUnavailable } from './timers/index.js';

export const REPLAY_PROVIDER: ProviderInfo = { id: REPLAY_PROVIDER_ID, name: 'Replay of a recorded session', base_url: 'file:', wire_api: 'responses' };

/** What a thread owns for as long as it is loaded, whatever its settings. */
export class ThreadResources {
  readonly scope: ProcessScope;
  readonly approvalCache = new ApprovalCache();
  unifiedExec: UnifiedExecManager | undefined;
  /** Set by a front end whose client holds the files (ThreadHandle.useClientFiles). */
  clientFiles: ClientFileSystem | undefined;
  /** Set by a front end whose client runs commands (ThreadHandle.useClientTerminals). */
  clientTerminals: ClientTerminals | undefined;
  /** The thread's MCP servers (thread-mcp.ts), when any are configured; they outlive settings changes. */
  mcp: ThreadMcp | undefined;
  /** The thread's hooks and checkpoints (core/extension-setup.ts), when set up. */
  hooks: ThreadHooks | undefined;
  checkpoints: ThreadCheckpoints | undefined;
  /** The skills found when the thread loaded (the skill tools look names up here). */
  skills: readonly SkillMetadata[] = [];
  /** The thread's worktree session (EnterWorktree / ExitWorktree), set once its handle exists. */
  worktrees: WorktreeCapability | undefined;
  /** The thread's scheduled prompts (CronCreate, ScheduleWakeup): cancelled when it closes. */
  readonly timers = new ThreadTimers();

  constructor(
    readonly threadId: string,
    readonly execPolicy: ExecPolicy,
  ) {
    this.scope = new ProcessScope({ name: PROCESS_SCOPE_VAR, value: processScopeToken(threadId) });
  }

  /** Sessions get the command environment of the first build (it does not depend on settings). */
  sessions(commandEnv: Record<string, string>, config: RigConfig): UnifiedExecManager {
    this.unifiedExec ??= new UnifiedExecManager({
      env: commandEnv,
      scope: this.scope,
      ...(config.background_terminal_max_timeout ? { backgroundMaxYieldMs: config.background_terminal_max_timeout } : {}),
    });
    return this.unifiedExec;
  }

  /** SessionEnd hooks, then kill every session and process group the thread started, and what escaped them. */
  async close(): Promise<void> {
    this.timers.close();
    try {
      await this.hooks?.run('SessionEnd', { reason: 'exit' });
    } finally {
      await this.mcp?.close();
      await this.unifiedExec?.closeAll();
      await this.scope.close();
      await this.checkpoints?.close();
    }
  }
}

export interface RuntimeContext {
  config: RigConfig;
  home: string;
  env: NodeJS.ProcessEnv;
  resources: ThreadResources;
  /** The engine's client for a provider (cached per provider; tests inject their own). */
  client(provider: ProviderInfo, settings: ThreadSettings): Promise<ModelClient>;
  /** Why this thread cannot keep timers (its front end ends with the turn, a sub-agent), if so. */
  noTimers?: string;
  /** A sub-agent's thread: it cannot put questions to the person (Codex drops the tool for children). */
  subagent?: boolean;
}

export interface BuiltRuntime {
  runtime: ThreadRuntime;
  /** [agents] as this thread's config has it (roles read from their files). */
  agents?: AgentsSettings;
  provider: ProviderInfo;
  model: string;
  harness: HarnessSetup;
  safety: SafetySettings;
  /** What hooks' stdin says about the session under these settings. */
  hookFacts: HookSessionFacts;
  /** Things the user should know about this thread's setup (shown as warnings). */
  notices: string[];
}

/** Capabilities this thread cannot serve, with why: their tools are left out of its requests. */
function unavailableCapabilities(webSearch: ResolvedWebSearch, sideSearch: SideSearch | undefined, noTimers: string | undefined, subagent: boolean): Map<string, string> {
  const missing = timersUnavailable(noTimers);
  if (subagent) missing.set('user.ask', 'a sub-agent cannot ask the person questions: it works from its task, and its parent asks');
  if (!webSearch.backend && !sideSearch) {
    // (A Codex-like profile on the Responses wire uses the provider's search instead: setupHarness.)
    missing.set(
      'web.search',
      webSearch.unavailable ??
        'no web search backend is configured: add [web_search] with provider = "brave", "tavily", "searxng" or "custom" to config.toml',
    );
  }
  return missing;
}

/**
 * The provider's own search as a side request (Claude Code's WebSearch): on the Messages wire, when
 * web_search asks for the provider's search and no backend is configured (nor a broken one).
 */
function providerSideSearch(webSearch: ResolvedWebSearch, client: ModelClient, model: string): SideSearch | undefined {
  if (webSearch.mode === 'disabled' || webSearch.backend || webSearch.unavailable || client.wire !== 'messages') return undefined;
  return createSideSearch(client, model, webSearch.hosted);
}

export function providerFor(config: RigConfig, settings: ThreadSettings, env: NodeJS.ProcessEnv): ProviderInfo {
  if (settings.provider === REPLAY_PROVIDER_ID) return REPLAY_PROVIDER;
  const providers: Record<string, Partial<ProviderInfo>> = { ...(config.model_providers as Record<string, Partial<ProviderInfo>>) };
  if (config.openai_base_url) providers['openai'] = { ...providers['openai'], base_url: config.openai_base_url };
  return resolveProvider(settings.provider, providers, env);
}

export function modelFor(provider: ProviderInfo, settings: ThreadSettings, home: string): string {
  const model = settings.model ?? provider.default_model ?? (provider.id === REPLAY_PROVIDER_ID ? 'replay' : undefined);
  if (!model) throw new Error(`no model set for provider '${provider.id}': pass -m MODEL, or set model = "..." in ${home}/config.toml`);
  return model;
}

export async function buildRuntime(context: RuntimeContext, settings: ThreadSettings): Promise<BuiltRuntime> {
  const { config, env, resources } = context;
  const provider = providerFor(config, settings, env);
  const model = modelFor(provider, settings, context.home);
  const client = await context.client(provider, settings);
  const shell = detectUserShell(env);
  const agents = resolveAgents(config, context.home, settings.cwd);
  const webSearch = resolveWebSearch(config.web_search, env);
  const sideSearch = providerSideSearch(webSearch, client, model);
  const harness = setupHarness({
    agentTools: agents.enabled ? (agents.v2 ? 'v2' : 'v1') : 'none',
    ...(settings.planMode ? { planMode: true } : {}),
    unavailableCapabilities: unavailableCapabilities(
      webSearch,
      sideSearch,
      context.noTimers ?? (config.timers?.enabled === false ? 'scheduled prompts are off: [timers] enabled = false in config.toml' : undefined),
      context.subagent === true,
    ),
    ...(webSearch.mode !== 'disabled' ? { hostedWebSearch: webSearch.mode, hostedSearchSettings: webSearch.hosted } : {}),
    config,
    provider,
    wire: client.wire,
    model,
    cwd: settings.cwd,
    home: context.home,
    // A configured harness is config's to name (setupHarness says where an unknown id came from).
    ...(settings.harness && settings.harnessOrigin !== 'config'
      ? { requested: settings.harness, ...(settings.harnessOrigin === 'recorded' ? { requestedBy: 'recorded in the resumed thread' } : {}) }
      : {}),
    shellName: basename(shell.path),
  });
  const safety = safetyFromConfig({
    config,
    cwd: settings.cwd,
    env,
    sandboxMode: settings.sandboxMode,
    approvalPolicy: settings.approvalPolicy,
    yolo: settings.yolo,
    threadId: resources.threadId,
    home: context.home,
    provider,
  });
  const orchestrator = createOrchestrator({
    sandbox: safety.sandbox,
    approvalPolicy: safety.approvalPolicy,
    // Plan mode: no `allow` rule may run a command outside the read-only sandbox.
    execPolicy: settings.planMode ? ExecPolicy.empty() : resources.execPolicy,
    yolo: safety.yolo,
    commandEnv: safety.commandEnv,
    unifiedExec: resources.sessions(safety.commandEnv, config),
    scope: resources.scope,
    approvalCache: resources.approvalCache,
    clientFiles: () => resources.clientFiles,
    clientTerminals: () => resources.clientTerminals,
    ...(resources.mcp ? { mcp: resources.mcp } : {}),
    ...(webSearch.backend ? { webSearch: webSearch.backend } : {}),
  });
  const tools = withMcpTools(
    {
      tools: harness.tools,
      advertised: harness.advertised,
      harnessId: harness.profile.id,
      defersBehindSearch: harness.profile.tools.some((tool) => tool.capability === 'tool.search'),
    },
    resources.mcp,
  );
  resources.timers.limits = timerLimits(config.timers);
  const capabilities: CapabilitiesFactory = (services) => ({
    ...orchestrator(services),
    ...(sideSearch ? { webSearch: (query: string, options: SearchOptions = {}) => sideSearch(query, options, services.signal) } : {}),
    skills: () => resources.skills,
    ...(resources.worktrees ? { worktree: resources.worktrees } : {}),
    timers: resources.timers,
  });
  const compactLimit = autoCompactLimit(model, config);
  const compaction = { config, model, maxUserTokens: userMessageBudget(compactLimit) };
  const capabilityByName = new Map(harness.profile.tools.map((tool) => [tool.name, tool.capability]));
  const hookFacts: HookSessionFacts = {
    model,
    permissionMode: permissionModeFor(safety.approvalPolicy, safety.sandbox.mode, safety.yolo),
    capabilityOf: (name) => capabilityByName.get(name),
    ...(tools.mcpToolOf ? { mcpToolOf: tools.mcpToolOf } : {}),
  };
  resources.hooks?.setFacts(hookFacts);
  const compactWithHooks = (target: Thread, trigger: 'manual' | 'auto') => compactAround(resources.hooks, trigger, target, () => compactThread(target, compaction));
  const runtime: ThreadRuntime = {
    model,
    client: harness.wrapClient(client),
    tools: tools.tools,
    advertisedTools: tools.advertised,
    instructions: config.model_instructions_file ? readFileSync(config.model_instructions_file, 'utf8') : '',
    capabilities,
    requestDefaults: {
      ...(settings.reasoningEffort ? { reasoningEffort: settings.reasoningEffort } : {}),
      ...(settings.reasoningSummary ? { reasoningSummary: settings.reasoningSummary } : {}),
      ...(settings.verbosity ? { verbosity: settings.verbosity } : {}),
      ...(harness.hostedWebSearch ? { hostedWebSearch: harness.hostedWebSearch } : {}),
    },
    shapeRequest: harness.shape,
    turnContext: {
      model_provider: provider.id,
      approval_policy: typeof safety.approvalPolicy === 'string' ? safety.approvalPolicy : 'granular',
      sandbox_mode: safety.sandbox.mode,
      harness: harness.profile.id,
      ...(settings.reasoningEffort ? { effort: settings.reasoningEffort } : {}),
    },
    ...(settings.maxTurnSteps !== undefined ? { maxTurnSteps: settings.maxTurnSteps } : {}),
    interruptedMarker: agents.interruptMessage ? (agents.v2 ? 'developer' : 'user') : 'none',
    autoCompact: {
      limit: compactLimit,
      compact: (target) => compactWithHooks(target, 'auto').then((result) => result.status === 'completed'),
    },
    onContextOverflow: (target) => compactWithHooks(target, 'auto').then((result) => result.status === 'completed'),
    compact: (target) => compactWithHooks(target, 'manual'),
    ...(safety.yolo ? {} : { warmUp: () => prewarmSandbox(safety.sandbox.mode) }),
  };
  if (!safety.yolo) refillSandboxesWhileWaiting();
  const notices = webSearch.unavailable
    ? [`web search is off for this thread: ${webSearch.unavailable}`]
    : webSearch.mode !== 'disabled' && !webSearch.backend && !sideSearch && !harness.hostedWebSearch
      ? [
          `web search is off for this thread: web_search = "${webSearch.mode}" asks for the provider's own search, which the ${client.wire} wire does not offer to the ${harness.profile.id} harness; ` +
            'add [web_search] with provider = "brave", "tavily", "searxng" or "custom" to config.toml to search through a backend',
        ]
      : [];
  notices.push(...setupSearch(config));
  return { runtime, provider, model, harness, safety, agents, hookFacts, notices };
}

/** PreCompact (a `continue: false` skips this compaction), the compaction, PostCompact, then SessionStart(compact). */
async function compactAround(hooks: ThreadHooks | undefined, trigger: 'manual' | 'auto', target: Thread, compact: () => Promise<TurnResult>): Promise<TurnResult> {
  const turnId = target.currentTurnId;
  const pre = await hooks?.run('PreCompact', { trigger }, turnId);
  if (pre?.stop || pre?.blocked) {
    return { status: 'failed', error: `a PreCompact hook skipped compaction: ${pre.stopReason ?? pre.reason ?? 'no reason given'}`, usage: target.usage };
  }
  const result = await compact();
  if (result.status === 'completed' && hooks) {
    await hooks.run('PostCompact', { trigger }, turnId);
    await fireSessionStart(hooks, 'compact');
  }
  return result;
}
