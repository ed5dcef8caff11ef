// Picks the harness a session presents to the model, loads its profile, binds its tools to the
// engine's capabilities, and returns the pure request shaper for it.
import { homedir, platform, tmpdir } from 'node:os';
import type { RigConfig } from '../config/index.js';
import { findProjectRoot, isProjectTrusted } from '../config/index.js';
import { chooseHarness, checkWireSupport } from '../harness/routing.js';
import { shapeRequest, type ShapeEnvironment } from '../harness/request-shape.js';
import { folderListing } from '../harness/startup-context.js';
import type { HarnessProfile } from '../harness/profile.js';
import type { HostedWebSearch, ModelClient, ModelRequest, WireApi } from '../model/types.js';
import { ReplayedCallsClient, textProtocolFor, wrapForTextProtocol } from '../harness/text-protocol/index.js';
import { createFormatErrorTool } from '../tools/harness/format-error.js';
import type { ProviderInfo } from '../model/providers.js';
import { loadBoundHarness, type BoundHarness } from '../tools/harness/registry.js';
import { nativeCapabilities } from '../tools/native/registry.js';
import { ToolRegistry } from '../tools/registry.js';
import { loadedDeferredTools } from '../tools/harness/meta.js';
import { toDefinition, type ToolSpec } from '../tools/spec.js';
import { multiAgentV1Tools, multiAgentV2Tools } from '../tools/agents/native.js';
import type { ToolDefinition } from '../protocol/index.js';

export interface HarnessSetup {
  profile: HarnessProfile;
  reason: string;
  /** The provider's own web search, when this profile and wire use it (see HarnessInputs). */
  hostedWebSearch?: HostedWebSearch;
  tools: ToolRegistry;
  /** The tools to advertise this step (deferred tools appear once loaded through tool search). */
  advertised: (threadState: Map<string, unknown>) => ToolDefinition[];
  shape: (request: ModelRequest) => ModelRequest;
  /**
   * The client the Thread samples through: for a text-protocol profile (SWE-agent, Terminus 2,
   * mini-swe-agent's sentinel) the driver that turns replies into hidden tool calls; otherwise
   * `client` itself. A replay is not driven again (its recording holds the synthesized calls); it
   * only gets back the calls that shaping removed from the requests (ReplayedCallsClient).
   */
  wrapClient: (client: ModelClient) => ModelClient;
}

export interface HarnessInputs {
  config: RigConfig;
  provider: ProviderInfo;
  wire: WireApi;
  model: string;
  cwd: string;
  home: string;
  /** --harness, or the harness a resumed thread used. */
  requested?: string;
  /** Where `requested` came from, for messages (default: the command line). */
  requestedBy?: string;
  shellName?: string;
  now?: () => Date;
  /** Codex's multi-agent tools for a Codex-like (native) profile, when [agents] is enabled. */
  agentTools?: 'none' | 'v1' | 'v2';
  /** Plan mode: tools that change files are not offered, and refuse when called. */
  planMode?: boolean;
  /** Capabilities this thread cannot serve (say, web search with no backend), with the reason. */
  unavailableCapabilities?: ReadonlyMap<string, string>;
  /**
   * web_search = "live" | "cached" on the Responses or Messages wire: a Codex-like profile then
   * uses the provider's own search (the hosted tool, Anthropic's server tool) instead of a
   * function tool over a backend.
   */
  hostedWebSearch?: 'live' | 'cached';
  /** Anthropic's server tool settings from [web_search] (max_uses, domains, user_location). */
  hostedSearchSettings?: Omit<HostedWebSearch, 'externalWebAccess'>;
}

/** The wires whose provider has a search of its own that rig can send as a tool. */
const HOSTED_SEARCH_WIRES: ReadonlySet<WireApi> = new Set(['responses', 'messages']);

const CODEX_SHELLS = new Set(['native.exec_command', 'native.shell', 'native.shell_command']);

/** Codex's own tool surface gets Codex's multi-agent tools; other harnesses bring their own. */
function nativeAgentTools(profile: HarnessProfile, wanted: HarnessInputs['agentTools']): ToolSpec[] {
  if (!wanted || wanted === 'none' || !profile.tools.some((tool) => CODEX_SHELLS.has(tool.capability))) return [];
  const names = new Set(profile.tools.map((tool) => tool.name));
  return (wanted === 'v2' ? multiAgentV2Tools() : multiAgentV1Tools()).filter((spec) => !names.has(spec.name));
}

export function setupHarness(inputs: HarnessInputs): HarnessSetup {
  const { config, provider, wire, model, cwd } = inputs;
  const choice = chooseHarness({
    provider: provider.id,
    providerName: provider.name,
    baseUrl: provider.base_url,
    model,
    wire,
    configured: inputs.requested ?? config.harness ?? provider.harness,
  });
  const trustedProjectRoots = isProjectTrusted(config, cwd) ? [findProjectRoot(cwd, config.project_root_markers) ?? cwd] : [];
  const native = nativeCapabilities({
    wire,
    // Images are offered unless the harness says its model is text-only.
    modelAcceptsImages: true,
    ...(config.background_terminal_max_timeout ? { backgroundMaxMs: config.background_terminal_max_timeout } : {}),
  });
  const search = { rigHome: inputs.home, trustedProjectRoots, ...(config.harnesses_dir ? { userDir: config.harnesses_dir } : {}) };
  // Where an unknown id came from, so the error says what to change.
  const origin = inputs.requested !== undefined
    ? inputs.requestedBy ?? 'given on the command line'
    : config.harness
      ? 'set by the `harness` config key'
      : provider.harness
        ? `set by model_providers.${provider.id}.harness`
        : choice.reason;
  let hostsWebSearch = false;
  const unavailable = (profile: HarnessProfile): ReadonlyMap<string, string> => {
    hostsWebSearch = inputs.hostedWebSearch !== undefined && HOSTED_SEARCH_WIRES.has(wire) && profile.tools.some((tool) => CODEX_SHELLS.has(tool.capability));
    if (!hostsWebSearch) return inputs.unavailableCapabilities ?? new Map();
    // The hosted tool is named web_search too: the function tool over a backend stays out.
    const map = new Map(inputs.unavailableCapabilities);
    map.set('web.search', "the provider's own web search is used on this wire (web_search = \"" + inputs.hostedWebSearch + '")');
    return map;
  };
  const { profile, tools: loaded } = loadBoundHarness(choice.id, native, search, origin, unavailable);
  const bound = inputs.planMode ? withoutWriters(profile, loaded) : loaded;
  const wireProblem = checkWireSupport(profile, wire);
  if (wireProblem) throw new Error(wireProblem);
  const textProtocol = textProtocolFor(profile);
  const agentSpecs = nativeAgentTools(profile, inputs.agentTools);
  const tools = new ToolRegistry([...(textProtocol ? [...bound.all, createFormatErrorTool()] : bound.all), ...agentSpecs]);
  const advertisedDefinitions = [...bound.advertised, ...agentSpecs].map(toDefinition);
  const deferredByName = new Map(bound.deferred.map((spec) => [spec.name, toDefinition(spec)]));
  const now = inputs.now ?? (() => new Date());
  // Computed once: the shaped prefix must stay byte-identical from step to step.
  const environment: ShapeEnvironment = {
    now: now(),
    cwd,
    wire,
    os: platform(),
    home: homedir(),
    tmpdir: tmpdir(),
    ...(inputs.shellName ? { shell: inputs.shellName } : {}),
    tree: folderListing(cwd),
    deferredTools: bound.deferred.map((spec) => spec.name),
  };
  return {
    ...(hostsWebSearch ? { hostedWebSearch: { externalWebAccess: inputs.hostedWebSearch === 'live', ...(wire === 'messages' ? inputs.hostedSearchSettings : {}) } } : {}),
    profile,
    reason: choice.reason,
    tools,
    advertised: (threadState) => {
      if (deferredByName.size === 0) return advertisedDefinitions;
      const loaded = [...loadedDeferredTools(threadState)].flatMap((name) => deferredByName.get(name) ?? []);
      return [...advertisedDefinitions, ...loaded];
    },
    shape: (request) => shapeRequest(profile, request, environment),
    wrapClient: (client) => {
      if (provider.id !== 'replay') return wrapForTextProtocol(client, textProtocol);
      return textProtocol ? new ReplayedCallsClient(client) : client;
    },
  };
}


/** Capabilities that change files: plan mode offers none of them (shells run read-only instead). */
const WRITE_CAPABILITIES = new Set(['fs.write', 'fs.edit', 'fs.apply_unified_diff', 'fs.str_replace_editor', 'native.apply_patch', 'swe.submit', 'worktree.enter', 'worktree.exit']);

/**
 * Plan mode's tool set: the profile's tools without its file writers (not advertised, not
 * deferred); a call to one anyway is refused with what to do instead.
 */
function withoutWriters(profile: HarnessProfile, bound: BoundHarness): BoundHarness {
  const writers = new Set(profile.tools.filter((tool) => WRITE_CAPABILITIES.has(tool.capability)).map((tool) => tool.name));
  const refuse = (spec: ToolSpec): ToolSpec => ({
    ...spec,
    handle: async () => ({
      output: `${spec.name} is not available in plan mode or a review: nothing may be changed in this read-only turn. Read and search to finish the plan or the review, then present it.`,
      success: false,
    }),
  });
  const all = bound.all.map((spec) => (writers.has(spec.name) ? refuse(spec) : spec));
  const keep = (specs: ToolSpec[]) => specs.filter((spec) => !writers.has(spec.name));
  return { all, advertised: keep(bound.advertised), deferred: keep(bound.deferred), byName: new Map(all.map((spec) => [spec.name, spec])), omitted: bound.omitted };
}
