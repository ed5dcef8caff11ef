// What a thread runs with, and the one pure function that derives it: the loaded config, then what
// the thread recorded last time (on resume), then the overrides a front end gave (start, resume,
// updateSettings). Flag parsing is the CLI's business; a front end hands over typed overrides.
import type { RigConfig } from '../config/index.js';
import { parseApprovalPolicy, approvalPolicyName, type ApprovalPolicyConfig } from '../policy/index.js';
import type { SandboxModeName, SettingsUpdate, ThreadSettingsView } from '../protocol/index.js';

/** Settings a front end may pin for a thread; each wins over config and over what was recorded. */
export interface ThreadOverrides {
  model?: string;
  /** A provider id (built-in or from config's model_providers). */
  provider?: string;
  harness?: string;
  sandbox?: SandboxModeName;
  approvalPolicy?: 'untrusted' | 'on-request' | 'on-failure' | 'never';
  reasoningEffort?: string;
  /** No sandbox and no approvals (--dangerously-bypass-approvals-and-sandbox). */
  yolo?: boolean;
  /** Serve the model's answers from a recorded rollout (implies the replay provider). */
  replayFile?: string;
  /** Plan mode: a read-only sandbox and only read, search and plan tools (children inherit it). */
  planMode?: boolean;
}

/** What a rollout says the thread last ran with (its newest turn context, else its meta line). */
export interface RecordedSettings {
  cwd?: string;
  model?: string;
  provider?: string;
  harness?: string;
  /** The effort the recorded model ran with (kept with that model, like the provider). */
  reasoningEffort?: string;
}

export interface ThreadSettings {
  cwd: string;
  provider: string;
  /** Undefined until the provider's default fills it in (see the engine's assembly). */
  model: string | undefined;
  /** The harness asked for; undefined lets the routing table pick one for provider and model. */
  harness: string | undefined;
  /** Where `harness` came from (error messages name it). */
  harnessOrigin?: 'override' | 'recorded' | 'config';
  approvalPolicy: ApprovalPolicyConfig;
  sandboxMode: SandboxModeName;
  yolo: boolean;
  reasoningEffort?: string;
  reasoningSummary?: string;
  verbosity?: string;
  /** Undefined: a turn runs until the model stops calling tools. */
  maxTurnSteps?: number;
  replayFile?: string;
  /** Plan mode: read-only sandbox, nothing escalates, no edit tools (the engine enforces it). */
  planMode?: boolean;
}

import { REPLAY_PROVIDER_ID } from './replay-provider.js';

export { REPLAY_PROVIDER_ID };

/**
 * Pure: the same config, recording and overrides always give the same settings. A resumed thread
 * keeps the provider, model and harness it ran with unless an override names others; a new model
 * is only inherited with its provider.
 */
export function resolveThreadSettings(
  config: RigConfig,
  cwd: string,
  overrides: ThreadOverrides,
  recorded: RecordedSettings = {},
): ThreadSettings {
  const replayFile = overrides.replayFile ?? (config.model_provider === REPLAY_PROVIDER_ID ? config.replay_file : undefined);
  const keepRecordedProvider = overrides.provider === undefined && overrides.replayFile === undefined && recorded.provider !== undefined;
  const provider = overrides.replayFile !== undefined
    ? REPLAY_PROVIDER_ID
    : overrides.provider ?? (keepRecordedProvider ? recorded.provider! : config.model_provider);
  const model = overrides.model ?? (keepRecordedProvider ? recorded.model : undefined) ?? config.model;
  const keptEffort = overrides.model === undefined && keepRecordedProvider && recorded.model !== undefined ? recorded.reasoningEffort : undefined;
  const effort = overrides.reasoningEffort ?? keptEffort ?? config.model_reasoning_effort;
  const plan = overrides.planMode === true;
  // Plan mode beats every other safety setting: nothing it runs may write or leave the sandbox.
  const yolo = plan ? false : overrides.yolo ?? false;
  const approval = plan ? 'never' : overrides.approvalPolicy ?? config.approval_policy;
  return {
    cwd,
    provider,
    model,
    harness: overrides.harness ?? recorded.harness ?? config.harness,
    ...(overrides.harness !== undefined
      ? { harnessOrigin: 'override' as const }
      : recorded.harness !== undefined
        ? { harnessOrigin: 'recorded' as const }
        : config.harness !== undefined
          ? { harnessOrigin: 'config' as const }
          : {}),
    approvalPolicy: yolo ? 'never' : parseApprovalPolicy(approval),
    sandboxMode: plan ? 'read-only' : yolo ? 'danger-full-access' : overrides.sandbox ?? config.sandbox_mode,
    ...(plan ? { planMode: true } : {}),
    yolo,
    ...(effort ? { reasoningEffort: effort } : {}),
    ...(config.model_reasoning_summary && config.model_reasoning_summary !== 'none' ? { reasoningSummary: config.model_reasoning_summary } : {}),
    ...(config.model_verbosity ? { verbosity: config.model_verbosity } : {}),
    ...(config.max_turn_steps !== undefined ? { maxTurnSteps: config.max_turn_steps } : {}),
    ...(replayFile !== undefined ? { replayFile } : {}),
  };
}

/** An updateSettings request as overrides on top of the thread's current ones. */
export function applySettingsUpdate(overrides: ThreadOverrides, update: SettingsUpdate): ThreadOverrides {
  return {
    ...overrides,
    ...(update.model !== undefined ? { model: update.model } : {}),
    ...(update.reasoning_effort !== undefined ? { reasoningEffort: update.reasoning_effort } : {}),
    ...(update.approval_policy !== undefined ? { approvalPolicy: update.approval_policy } : {}),
    ...(update.sandbox_mode !== undefined ? { sandbox: update.sandbox_mode } : {}),
    ...(update.harness !== undefined ? { harness: update.harness } : {}),
    ...(update.plan_mode !== undefined ? { planMode: update.plan_mode } : {}),
  };
}

/** The settings as front ends see them (after the harness and model were settled). */
export function settingsView(settings: ThreadSettings, resolved: { model: string; harness: string }): ThreadSettingsView {
  return {
    cwd: settings.cwd,
    model: resolved.model,
    model_provider: settings.provider,
    harness: resolved.harness,
    approval_policy: approvalPolicyName(settings.approvalPolicy),
    sandbox_mode: settings.sandboxMode,
    ...(settings.reasoningEffort ? { reasoning_effort: settings.reasoningEffort } : {}),
    yolo: settings.yolo,
    ...(settings.planMode ? { plan_mode: true } : {}),
  };
}
