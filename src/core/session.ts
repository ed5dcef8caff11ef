// Assembles a session from config and flags: provider and model client, harness and tools, safety
// (sandbox, approvals, rules, environment), context (AGENTS.md, environment block), the rollout,
// and finally the Thread. Front ends call openSession and talk to session.thread.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { RigConfig } from '../config/index.js';
import { isProjectTrusted, loadConfig, resolveRigHome } from '../config/index.js';
import type { ConversationItem, JsonSchema } from '../protocol/index.js';
import type { ModelClient, WireApi } from '../model/types.js';
import { createModelClient, resolveProvider, type ProviderInfo } from '../model/index.js';
import { autoCompactLimit, buildEnvironmentContext, buildInitialContextMessage, discoverProjectDocs } from '../context/index.js';
import { detectUserShell } from '../exec/shell.js';
import { killAllProcessGroups } from '../exec/process-groups.js';
import {
  RolloutRecorder,
  RolloutWriter,
  newThreadId,
  readGitInfo,
  createRedactor,
  repairCallPairing,
  type Redactor,
} from '../store/index.js';
import { collectSessionSecrets } from './secrets.js';
import { Thread, type TurnResult } from './thread.js';
import type { SessionFlags } from './settings.js';
import { NOT_TRUSTED_MESSAGE, findGitRoot } from './git-check.js';
import { setupSafety } from './session-safety.js';
import { setupHarness } from './session-harness.js';
import { loadRollout, locateRollout, type ResumeTarget } from './session-resume.js';
import { compactThread, userMessageBudget } from './compaction.js';
import { rigVersion } from './version.js';

export type { ResumeTarget } from './session-resume.js';

export interface OpenSessionOptions {
  flags: SessionFlags;
  env: NodeJS.ProcessEnv;
  processCwd: string;
  mode: 'exec' | 'interactive';
  resume?: ResumeTarget;
  /** Start a new thread from a copy of this one's history. */
  fork?: ResumeTarget;
  /** Tests inject a client instead of resolving a provider. */
  client?: ModelClient;
}

export interface Session {
  thread: Thread;
  config: RigConfig;
  cwd: string;
  model: string;
  provider: ProviderInfo;
  harness: string;
  /** The sandbox model-run commands get, and when a person is asked (for headers and reports). */
  sandboxMode: string;
  approvalPolicy: string;
  warnings: string[];
  images: string[];
  outputSchema?: JsonSchema;
  rolloutPath?: string;
  /** Replaces every configured secret; front ends pass everything they print through it. */
  redactor: Redactor;
  compact(): Promise<TurnResult>;
  close(): Promise<void>;
}

const REPLAY_PROVIDER: ProviderInfo = { id: 'replay', name: 'Replay of a recorded session', base_url: 'file:', wire_api: 'responses' };

function approvalFromFlags(flags: SessionFlags, mode: OpenSessionOptions['mode']): 'untrusted' | 'on-request' | 'never' | undefined {
  if (flags.askForApproval) return flags.askForApproval === 'on-failure' ? 'on-request' : flags.askForApproval;
  if (flags.fullAuto) return 'on-request';
  // exec has nobody to ask: it never prompts unless told otherwise.
  return mode === 'exec' ? 'never' : undefined;
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

export async function openSession(options: OpenSessionOptions): Promise<Session> {
  const { flags, env, mode } = options;
  const home = resolveRigHome(env);
  const yolo = Boolean(flags.dangerouslyBypassApprovalsAndSandbox || flags.yolo);
  const replayFile = flags.replay;
  const approval = approvalFromFlags(flags, mode);
  const loaded = loadConfig({
    home,
    cwd: options.processCwd,
    ...(flags.profile ? { profile: flags.profile } : {}),
    overrides: flags.config ?? [],
    flags: {
      ...(flags.model ? { model: flags.model } : {}),
      ...(replayFile ? { provider: 'replay' } : flags.provider ? { provider: flags.provider } : {}),
      ...(flags.cd ? { cwd: flags.cd } : {}),
      ...(flags.sandbox ? { sandbox: flags.sandbox } : flags.fullAuto ? { sandbox: 'workspace-write' as const } : {}),
      ...(approval ? { approval } : {}),
      ...(flags.harness ? { harness: flags.harness } : {}),
      ...(flags.addDir ? { addDirs: flags.addDir } : {}),
    },
    env,
    ...(flags.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
    ...(flags.strictConfig ? { strict: true } : {}),
  });
  const config = loaded.config;
  const warnings = [...loaded.warnings];
  let cwd = loaded.cwd;

  if (mode === 'exec' && !flags.skipGitRepoCheck && !yolo && !findGitRoot(cwd) && !isProjectTrusted(config, cwd)) {
    throw new Error(NOT_TRUSTED_MESSAGE);
  }
  if (yolo) warnings.push('running with --dangerously-bypass-approvals-and-sandbox: commands run WITHOUT a sandbox and WITHOUT asking');

  const source = options.resume ?? options.fork;
  const located = source ? locateRollout(home, source, cwd) : undefined;
  const resumed = located ? loadRollout(located.path, located.threadId) : undefined;
  if (resumed) {
    warnings.push(...resumed.warnings);
    // A resumed thread keeps its directory unless the command line names another.
    const recordedCwd = resumed.turnContext?.cwd ?? resumed.meta?.cwd;
    if (!flags.cd && recordedCwd) cwd = recordedCwd;
  }

  // A resumed thread keeps the provider and model it ran with unless the command line names others.
  const recordedProvider = flags.provider || replayFile ? undefined : resumed?.turnContext?.model_provider ?? resumed?.meta?.model_provider;
  const configuredProvider = recordedProvider ?? config.model_provider;
  const providerId = replayFile || configuredProvider === 'replay' ? 'replay' : configuredProvider;
  const provider = providerId === 'replay'
    ? REPLAY_PROVIDER
    : resolveProvider(providerId, withBaseUrl(config), env);
  const recordedModel = recordedProvider !== undefined || (resumed && !flags.provider) ? resumed?.turnContext?.model ?? resumed?.meta?.model : undefined;
  const model = flags.model ?? recordedModel ?? config.model ?? provider.default_model ?? (providerId === 'replay' ? 'replay' : undefined);
  if (!model) {
    throw new Error(`no model set for provider '${provider.id}': pass -m MODEL, or set model = "..." in ${home}/config.toml`);
  }

  let client = options.client;
  if (!client) {
    if (providerId === 'replay') {
      const file = replayFile ?? config.replay_file;
      if (!file) throw new Error('the replay provider needs a recording: pass --replay FILE or set replay_file in config.toml');
      const { ReplayClient } = await import('../model/replay.js');
      client = new ReplayClient(file);
    } else {
      client = await createModelClient(provider, { env });
    }
  }
  const wire: WireApi = client.wire;

  const threadId = resumed && !options.fork ? resumed.threadId : newThreadId();
  const shell = detectUserShell(env);
  const harness = setupHarness({
    config,
    provider,
    wire,
    model,
    cwd,
    home,
    ...(flags.harness
      ? { requested: flags.harness }
      : recordedHarness(resumed)
        ? { requested: recordedHarness(resumed)!, requestedBy: 'recorded in the resumed thread' }
        : {}),
    shellName: basename(shell.path),
  });
  const secretSet = collectSessionSecrets(config, env, provider);
  const protectedVars = secretSet.protectedVars;
  const safety = await setupSafety({ config, cwd, home, env, threadId, yolo, ignoreRules: Boolean(flags.ignoreRules), protectedVars });

  const initialContext: ConversationItem[] = [];
  if (!resumed) {
    if (config.developer_instructions) initialContext.push({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: config.developer_instructions }] });
    const docs = discoverProjectDocs({
      cwd,
      home,
      markers: config.project_root_markers,
      fallbackFilenames: config.project_doc_fallback_filenames,
      maxBytes: config.project_doc_max_bytes,
      ...(config.instructions ? { userInstructions: config.instructions } : {}),
    });
    const environmentContext = config.include_environment_context === false
      ? undefined
      : buildEnvironmentContext({
          cwd,
          shell: basename(shell.path),
          sandboxMode: safety.sandbox.mode,
          approvalPolicy: typeof safety.approvalPolicy === 'string' ? safety.approvalPolicy : 'granular',
          networkAccess: safety.sandbox.networkAccess,
          now: new Date(),
        });
    const message = buildInitialContextMessage({ cwd, instructions: docs.text, ...(environmentContext ? { environmentContext } : {}) });
    if (message) initialContext.push(message);
  }

  const secrets = secretSet.values;
  let recorder: RolloutRecorder | undefined;
  if (!flags.ephemeral) {
    const writer = resumed && !options.fork
      ? RolloutWriter.open({ path: resumed.path, secrets })
      : RolloutWriter.create({
          home,
          threadId,
          secrets,
          meta: {
            cwd,
            originator: env['CODEX_INTERNAL_ORIGINATOR_OVERRIDE'] ?? 'rig',
            cli_version: rigVersion(),
            source: mode === 'exec' ? 'exec' : 'cli',
            model,
            model_provider: provider.id,
            harness: harness.profile.id,
            ...(options.fork && resumed ? { forked_from_id: resumed.threadId } : {}),
            ...gitMeta(cwd),
          },
        });
    // A resumed rollout already holds its history; compaction records refer to it by index.
    recorder = new RolloutRecorder(writer, resumed && !options.fork ? { history: resumed.history } : {});
    if (options.fork && resumed) for (const item of resumed.history) recorder.item(item);
  }

  const compactLimit = autoCompactLimit(model, config);
  const compaction = { config, model, maxUserTokens: userMessageBudget(compactLimit) };
  const thread = new Thread({
    id: threadId,
    cwd,
    model,
    client: harness.wrapClient(client),
    tools: harness.tools,
    advertisedTools: harness.advertised,
    instructions: config.model_instructions_file ? readFileSync(config.model_instructions_file, 'utf8') : '',
    capabilities: safety.capabilities,
    ...(resumed ? { history: closeDanglingCalls(resumed.history) } : {}),
    initialContext,
    maxTurnSteps: config.max_turn_steps,
    ...(recorder ? { recorder } : {}),
    requestDefaults: {
      ...(config.model_reasoning_effort ? { reasoningEffort: config.model_reasoning_effort } : {}),
      ...(config.model_reasoning_summary && config.model_reasoning_summary !== 'none' ? { reasoningSummary: config.model_reasoning_summary } : {}),
      ...(config.model_verbosity ? { verbosity: config.model_verbosity } : {}),
    },
    shapeRequest: harness.shape,
    turnContext: {
      model_provider: provider.id,
      approval_policy: typeof safety.approvalPolicy === 'string' ? safety.approvalPolicy : 'granular',
      sandbox_mode: safety.sandbox.mode,
      harness: harness.profile.id,
    },
    autoCompact: {
      limit: compactLimit,
      compact: (target) => compactThread(target, compaction).then((result) => result.status === 'completed'),
    },
    onContextOverflow: (target) => compactThread(target, compaction).then((result) => result.status === 'completed'),
  });
  if (resumed?.totalUsage) thread.usage = resumed.totalUsage;

  return {
    thread,
    config,
    cwd,
    model,
    provider,
    harness: harness.profile.id,
    sandboxMode: safety.sandbox.mode,
    approvalPolicy: typeof safety.approvalPolicy === 'string' ? safety.approvalPolicy : 'granular',
    warnings: [...warnings, ...safety.sandbox.warnings, ...safety.warnings],
    images: flags.image ?? [],
    ...(flags.outputSchema ? { outputSchema: readOutputSchema(flags.outputSchema) } : {}),
    ...(recorder ? { rolloutPath: recorder.path } : {}),
    redactor: createRedactor(secrets),
    compact: () => compactThread(thread, compaction),
    async close() {
      await safety.unifiedExec.closeAll();
      killAllProcessGroups();
      recorder?.close();
    },
  };
}

/** The harness a resumed thread last ran with (the newest turn context, else its meta line). */
function recordedHarness(resumed: { turnContext?: { harness?: string }; meta?: { harness?: string } } | undefined): string | undefined {
  return resumed?.turnContext?.harness ?? resumed?.meta?.harness;
}

/** Calls without outputs answered as aborted, orphans and duplicates dropped (store's repairCallPairing). */
export function closeDanglingCalls(history: ConversationItem[]): ConversationItem[] {
  return repairCallPairing(history).history;
}

function withBaseUrl(config: RigConfig): Record<string, Partial<ProviderInfo>> {
  const providers: Record<string, Partial<ProviderInfo>> = { ...(config.model_providers as Record<string, Partial<ProviderInfo>>) };
  if (config.openai_base_url) providers['openai'] = { ...providers['openai'], base_url: config.openai_base_url };
  return providers;
}

function gitMeta(cwd: string): { git?: ReturnType<typeof readGitInfo> } {
  const git = readGitInfo(cwd);
  return git ? { git } : {};
}

