// Client-to-server requests of the app-server protocol that rig implements, each as params ->
// result. Params are loose objects: a Codex client sends fields for features rig does not have
// (service tiers, personalities, dynamic tools), and those are accepted and ignored rather than
// refused. `rig/...` methods are rig's own extensions (harness and wire selection).
import { z } from 'zod';
import { EmptyResult, JsonValue, method, named } from './common.js';
import { UserInput } from './items.js';
import {
  ApprovalsReviewer,
  AskForApproval,
  AskForApprovalInput,
  ReasoningEffort,
  ReasoningSummary,
  SandboxMode,
  SandboxPolicy,
  Thread,
  ThreadGoal,
  ThreadGoalStatus,
  Turn,
} from './thread.js';

export const ClientInfo = named('ClientInfo', z.looseObject({ name: z.string(), title: z.string().nullable().optional(), version: z.string() }));
export const InitializeCapabilities = named(
  'InitializeCapabilities',
  z.looseObject({
    experimentalApi: z.boolean().optional(),
    requestAttestation: z.boolean().optional(),
    /** Exact notification method names this connection does not want. */
    optOutNotificationMethods: z.array(z.string()).nullable().optional(),
  }),
);

const initialize = method(
  'Initialize',
  z.looseObject({ clientInfo: ClientInfo, capabilities: InitializeCapabilities.nullable().optional() }),
  z.object({ userAgent: z.string(), codexHome: z.string(), platformFamily: z.string(), platformOs: z.string() }),
);

/** Dotted config keys -> JSON values, applied like `-c key=value` (e.g. {"harness": "claude-code"}). */
const ConfigOverrides = z.record(z.string(), JsonValue);

const threadOverrides = {
  model: z.string().nullable().optional(),
  modelProvider: z.string().nullable().optional(),
  cwd: z.string().nullable().optional(),
  approvalPolicy: AskForApprovalInput.nullable().optional(),
  approvalsReviewer: ApprovalsReviewer.nullable().optional(),
  sandbox: SandboxMode.nullable().optional(),
  config: ConfigOverrides.nullable().optional(),
  baseInstructions: z.string().nullable().optional(),
  developerInstructions: z.string().nullable().optional(),
};

export const ThreadLoadResult = z.object({
  thread: Thread,
  model: z.string(),
  modelProvider: z.string(),
  serviceTier: z.string().nullable(),
  disabledPluginIds: z.array(z.string()),
  cwd: z.string(),
  instructionSources: z.array(z.string()),
  approvalPolicy: AskForApproval,
  approvalsReviewer: ApprovalsReviewer,
  sandbox: SandboxPolicy,
  reasoningEffort: ReasoningEffort.nullable(),
});

const threadStartParams = z.looseObject({ ...threadOverrides, ephemeral: z.boolean().nullable().optional() });
const threadStart = method('ThreadStart', threadStartParams, ThreadLoadResult);
const threadResume = method(
  'ThreadResume',
  z.looseObject({ threadId: z.string(), ...threadOverrides, excludeTurns: z.boolean().optional() }),
  ThreadLoadResult.extend({ collaborationMode: z.null(), turnsBackwardsCursor: z.null(), itemsBackwardsCursor: z.null() }),
);
const threadFork = method(
  'ThreadFork',
  z.looseObject({ threadId: z.string(), lastTurnId: z.string().nullable().optional(), ...threadOverrides, ephemeral: z.boolean().optional(), excludeTurns: z.boolean().optional() }),
  ThreadLoadResult,
);
const threadList = method(
  'ThreadList',
  z.looseObject({
    cursor: z.string().nullable().optional(),
    limit: z.number().int().min(1).nullable().optional(),
    modelProviders: z.array(z.string()).nullable().optional(),
    archived: z.boolean().nullable().optional(),
    cwd: z.union([z.string(), z.array(z.string())]).nullable().optional(),
    searchTerm: z.string().nullable().optional(),
  }),
  z.object({ data: z.array(Thread), nextCursor: z.string().nullable(), backwardsCursor: z.string().nullable() }),
);
const threadLoadedList = method('ThreadLoadedList', z.looseObject({}), z.object({ data: z.array(z.string()), nextCursor: z.string().nullable() }));
const threadRead = method('ThreadRead', z.looseObject({ threadId: z.string(), includeTurns: z.boolean().optional() }), z.object({ thread: Thread }));
const threadId = z.looseObject({ threadId: z.string() });
const threadArchive = method('ThreadArchive', threadId, EmptyResult());
const threadUnarchive = method('ThreadUnarchive', threadId, z.object({ thread: Thread }));
const threadSetName = method('ThreadSetName', z.looseObject({ threadId: z.string(), name: z.string() }), EmptyResult());
const threadCompactStart = method('ThreadCompactStart', threadId, EmptyResult());

/** Explicit user actions vs. automatic lifecycle changes (only the former are announced to the model). */
const ThreadGoalMutationOrigin = named('ThreadGoalMutationOrigin', z.enum(['user', 'automatic']));
const threadGoalSet = method(
  'ThreadGoalSet',
  z.looseObject({
    threadId: z.string(),
    origin: ThreadGoalMutationOrigin.nullable().optional(),
    objective: z.string().nullable().optional(),
    status: ThreadGoalStatus.nullable().optional(),
    tokenBudget: z.number().int().nullable().optional(),
  }),
  z.object({ goal: ThreadGoal }),
);
const threadGoalGet = method('ThreadGoalGet', threadId, z.object({ goal: ThreadGoal.nullable() }));
const threadGoalClear = method('ThreadGoalClear', z.looseObject({ threadId: z.string(), origin: ThreadGoalMutationOrigin.nullable().optional() }), z.object({ cleared: z.boolean() }));

const turnStart = method(
  'TurnStart',
  z.looseObject({
    threadId: z.string(),
    input: z.array(UserInput),
    clientUserMessageId: z.string().nullable().optional(),
    cwd: z.string().nullable().optional(),
    approvalPolicy: AskForApprovalInput.nullable().optional(),
    approvalsReviewer: ApprovalsReviewer.nullable().optional(),
    sandboxPolicy: SandboxPolicy.nullable().optional(),
    model: z.string().nullable().optional(),
    effort: ReasoningEffort.nullable().optional(),
    summary: ReasoningSummary.nullable().optional(),
    /** JSON Schema for this turn's final answer. */
    outputSchema: JsonValue.optional(),
  }),
  z.object({ turn: Turn }),
);
const turnSteer = method(
  'TurnSteer',
  z.looseObject({ threadId: z.string(), input: z.array(UserInput), expectedTurnId: z.string(), clientUserMessageId: z.string().nullable().optional() }),
  z.object({ turnId: z.string() }),
);
const turnInterrupt = method('TurnInterrupt', z.looseObject({ threadId: z.string(), turnId: z.string() }), EmptyResult());

// review/start: a read-only review turn on the thread (inline) or on a new one (detached).
export const ReviewTarget = named(
  'ReviewTarget',
  z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('uncommittedChanges') }),
    z.looseObject({ type: z.literal('baseBranch'), branch: z.string() }),
    z.looseObject({ type: z.literal('commit'), sha: z.string(), title: z.string().nullable().optional() }),
    z.looseObject({ type: z.literal('custom'), instructions: z.string() }),
  ]),
);
export const ReviewDelivery = named('ReviewDelivery', z.enum(['inline', 'detached']));
const reviewStart = method(
  'ReviewStart',
  z.looseObject({ threadId: z.string(), target: ReviewTarget, delivery: ReviewDelivery.nullable().optional() }),
  z.object({ turn: Turn, reviewThreadId: z.string() }),
);

export const ReasoningEffortOption = named('ReasoningEffortOption', z.object({ reasoningEffort: ReasoningEffort, description: z.string() }));
export const InputModality = named('InputModality', z.enum(['text', 'image', 'audio']));
export const Model = named(
  'Model',
  z.object({
    id: z.string(),
    model: z.string(),
    upgrade: z.string().nullable(),
    upgradeInfo: z.null(),
    availabilityNux: z.null(),
    displayName: z.string(),
    description: z.string(),
    modelSpecialty: z.string().nullable(),
    hidden: z.boolean(),
    supportedReasoningEfforts: z.array(ReasoningEffortOption),
    defaultReasoningEffort: ReasoningEffort,
    inputModalities: z.array(InputModality),
    supportsPersonality: z.boolean(),
    multiAgentVersion: z.null(),
    additionalSpeedTiers: z.array(z.string()),
    serviceTiers: z.array(z.object({ id: z.string(), name: z.string(), description: z.string() })),
    defaultServiceTier: z.string().nullable(),
    availableAccessPrograms: z.null(),
    isDefault: z.boolean(),
  }),
);
const modelList = method(
  'ModelList',
  z.looseObject({ cursor: z.string().nullable().optional(), limit: z.number().int().min(1).nullable().optional(), includeHidden: z.boolean().nullable().optional() }),
  z.object({ data: z.array(Model), nextCursor: z.string().nullable() }),
);

export const ConfigLayerSource = named(
  'ConfigLayerSource',
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('user'), file: z.string(), profile: z.string().nullable() }),
    z.object({ type: z.literal('project'), dotCodexFolder: z.string() }),
    z.object({ type: z.literal('system'), file: z.string() }),
    z.object({ type: z.literal('sessionFlags') }),
  ]),
);
export const ConfigLayer = named(
  'ConfigLayer',
  z.object({ name: ConfigLayerSource, version: z.string(), config: JsonValue, disabledReason: z.string().nullable() }),
);
const configRead = method(
  'ConfigRead',
  z.looseObject({ includeLayers: z.boolean().optional(), cwd: z.string().nullable().optional() }),
  z.object({
    /** The effective config, keyed by config.toml's (Codex's) key names; secrets redacted. */
    config: z.record(z.string(), JsonValue),
    origins: z.record(z.string(), z.object({ name: ConfigLayerSource, version: z.string() })),
    layers: z.array(ConfigLayer).nullable(),
  }),
);

// rig's extensions.
export const RigThreadInfo = named(
  'RigThreadInfo',
  z.object({
    threadId: z.string(),
    /** The harness profile the model sees (its tools, prompt and request shape). */
    harness: z.string(),
    /** The wire the provider is spoken over: responses, chat or messages. */
    wire: z.string(),
    modelProvider: z.string(),
    modelProviderName: z.string(),
    model: z.string(),
    approvalPolicy: z.string(),
    sandbox: SandboxMode,
  }),
);
export const RigHarness = named(
  'RigHarness',
  z.object({ id: z.string(), description: z.string().nullable(), wires: z.array(z.string()), origin: z.string(), error: z.string().nullable() }),
);
const WireName = z.enum(['responses', 'chat', 'messages']);
const rigThreadStart = method(
  'RigThreadStart',
  threadStartParams.extend({ harness: z.string().nullable().optional(), wire: WireName.nullable().optional() }),
  ThreadLoadResult.extend({ rig: RigThreadInfo }),
);
const rigThreadInfo = method('RigThreadInfo', threadId, RigThreadInfo);
const rigThreadHarnessSet = method('RigThreadHarnessSet', z.looseObject({ threadId: z.string(), harness: z.string() }), RigThreadInfo);
const rigHarnessList = method('RigHarnessList', z.looseObject({ cwd: z.string().nullable().optional() }), z.object({ data: z.array(RigHarness) }));

/** Every client request rig answers, by method name. */
export const CLIENT_REQUESTS = {
  initialize,
  'thread/start': threadStart,
  'thread/resume': threadResume,
  'thread/fork': threadFork,
  'thread/list': threadList,
  'thread/loaded/list': threadLoadedList,
  'thread/read': threadRead,
  'thread/archive': threadArchive,
  'thread/unarchive': threadUnarchive,
  'thread/name/set': threadSetName,
  'thread/compact/start': threadCompactStart,
  'thread/goal/set': threadGoalSet,
  'thread/goal/get': threadGoalGet,
  'thread/goal/clear': threadGoalClear,
  'turn/start': turnStart,
  'turn/steer': turnSteer,
  'turn/interrupt': turnInterrupt,
  'review/start': reviewStart,
  'model/list': modelList,
  'config/read': configRead,
  'rig/thread/start': rigThreadStart,
  'rig/thread/info': rigThreadInfo,
  'rig/thread/harness/set': rigThreadHarnessSet,
  'rig/harness/list': rigHarnessList,
} as const;

export type ClientRequestMethod = keyof typeof CLIENT_REQUESTS;
export type ParamsOf<M extends ClientRequestMethod> = z.infer<(typeof CLIENT_REQUESTS)[M]['params']>;
export type ResultOf<M extends ClientRequestMethod> = z.infer<(typeof CLIENT_REQUESTS)[M]['result']>;

/** Client notifications rig accepts. */
export const CLIENT_NOTIFICATIONS = { initialized: z.looseObject({}).optional() } as const;
