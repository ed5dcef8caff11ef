// Threads and turns of the app-server protocol, and the settings vocabulary they carry (approval
// policy, sandbox, reviewer), in Codex's v2 shapes. A Thread as rig reports it fills every field
// Codex's clients read; fields for features rig does not have (sections, projects, sub-agents)
// are null.
import { z } from 'zod';
import { named } from './common.js';
import { ThreadItem } from './items.js';

export const ReasoningEffort = named('ReasoningEffort', z.string());
export const ReasoningSummary = named('ReasoningSummary', z.enum(['auto', 'concise', 'detailed', 'none']));
export const AskForApproval = named(
  'AskForApproval',
  z.union([
    z.enum(['untrusted', 'on-request', 'never']),
    z.object({
      granular: z.object({
        sandbox_approval: z.boolean(),
        rules: z.boolean(),
        skill_approval: z.boolean(),
        request_permissions: z.boolean(),
        mcp_elicitations: z.boolean(),
      }),
    }),
  ]),
);
export type AskForApproval = z.infer<typeof AskForApproval>;
/** What a client may send: Codex's values, and rig's (and older Codex's) `on-failure`. */
export const AskForApprovalInput = named('AskForApprovalInput', z.union([AskForApproval, z.literal('on-failure')]));
export const ApprovalsReviewer = named('ApprovalsReviewer', z.enum(['user', 'auto_review', 'guardian_subagent']));
export const SandboxMode = named('SandboxMode', z.enum(['read-only', 'workspace-write', 'danger-full-access']));
export type SandboxMode = z.infer<typeof SandboxMode>;
export const NetworkAccess = named('NetworkAccess', z.enum(['restricted', 'enabled']));
export const SandboxPolicy = named(
  'SandboxPolicy',
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('dangerFullAccess') }),
    z.object({ type: z.literal('readOnly'), networkAccess: z.boolean().optional() }),
    z.object({ type: z.literal('externalSandbox'), networkAccess: NetworkAccess.optional() }),
    z.object({
      type: z.literal('workspaceWrite'),
      writableRoots: z.array(z.string()).optional(),
      networkAccess: z.boolean().optional(),
      excludeTmpdirEnvVar: z.boolean().optional(),
      excludeSlashTmp: z.boolean().optional(),
    }),
  ]),
);
export type SandboxPolicy = z.infer<typeof SandboxPolicy>;

export const ThreadActiveFlag = named('ThreadActiveFlag', z.enum(['waitingOnApproval', 'waitingOnUserInput']));
export const ThreadStatus = named(
  'ThreadStatus',
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('notLoaded') }),
    z.object({ type: z.literal('idle') }),
    z.object({ type: z.literal('systemError') }),
    z.object({ type: z.literal('active'), activeFlags: z.array(ThreadActiveFlag) }),
  ]),
);
export type ThreadStatus = z.infer<typeof ThreadStatus>;

export const GitInfo = named('GitInfo', z.object({ sha: z.string().nullable(), branch: z.string().nullable(), originUrl: z.string().nullable() }));
export const SessionSource = named('SessionSource', z.union([z.enum(['cli', 'vscode', 'exec', 'appServer', 'unknown']), z.object({ custom: z.string() })]));
export const ThreadHistoryMode = named('ThreadHistoryMode', z.enum(['legacy', 'paginated']));
export const TurnStatus = named('TurnStatus', z.enum(['completed', 'interrupted', 'failed', 'inProgress']));
export const TurnItemsView = named('TurnItemsView', z.enum(['notLoaded', 'summary', 'full']));
export const CodexErrorInfo = named(
  'CodexErrorInfo',
  z.union([
    z.enum(['contextWindowExceeded', 'usageLimitExceeded', 'internalServerError', 'unauthorized', 'badRequest', 'sandboxError', 'other']),
    z.object({ responseStreamDisconnected: z.object({ httpStatusCode: z.number().int().nullable() }) }),
    z.object({ httpConnectionFailed: z.object({ httpStatusCode: z.number().int().nullable() }) }),
  ]),
);
export const TurnError = named(
  'TurnError',
  z.object({ message: z.string(), codexErrorInfo: CodexErrorInfo.nullable(), additionalDetails: z.string().nullable(), misalignment: z.null() }),
);
export type TurnError = z.infer<typeof TurnError>;

export const Turn = named(
  'Turn',
  z.object({
    id: z.string(),
    rootTurnId: z.string().nullable(),
    items: z.array(ThreadItem),
    itemsView: TurnItemsView,
    status: TurnStatus,
    error: TurnError.nullable(),
    /** Unix seconds. */
    startedAt: z.number().int().nullable(),
    completedAt: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
  }),
);
export type Turn = z.infer<typeof Turn>;

export const Thread = named(
  'Thread',
  z.object({
    id: z.string(),
    sessionId: z.string(),
    forkedFromId: z.string().nullable(),
    parentThreadId: z.string().nullable(),
    /** Usually the first user message. */
    preview: z.string(),
    ephemeral: z.boolean(),
    section: z.null(),
    sectionEnteredAt: z.null(),
    projectId: z.null(),
    historyMode: ThreadHistoryMode,
    modelProvider: z.string(),
    model: z.string().nullable(),
    reasoningEffort: ReasoningEffort.nullable(),
    /** Unix seconds. */
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
    recencyAt: z.number().int().nullable(),
    status: ThreadStatus,
    /** The rollout file; null for an ephemeral thread. */
    path: z.string().nullable(),
    cwd: z.string(),
    cliVersion: z.string(),
    originator: z.string().nullable(),
    source: SessionSource,
    threadSource: z.string().nullable(),
    agentNickname: z.null(),
    agentRole: z.null(),
    gitInfo: GitInfo.nullable(),
    name: z.string().nullable(),
    /** Filled by thread/resume, thread/fork and thread/read with includeTurns; otherwise empty. */
    turns: z.array(Turn),
  }),
);
export type Thread = z.infer<typeof Thread>;

export const TokenUsageBreakdown = named(
  'TokenUsageBreakdown',
  z.object({
    totalTokens: z.number().int(),
    inputTokens: z.number().int(),
    cachedInputTokens: z.number().int(),
    cacheWriteInputTokens: z.number().int(),
    outputTokens: z.number().int(),
    reasoningOutputTokens: z.number().int(),
  }),
);
export const ThreadTokenUsage = named(
  'ThreadTokenUsage',
  z.object({ total: TokenUsageBreakdown, last: TokenUsageBreakdown, modelContextWindow: z.number().int().nullable() }),
);

/** A thread's goal (thread/goal/*, thread/goal/updated). */
export const ThreadGoalStatus = named('ThreadGoalStatus', z.enum(['active', 'paused', 'blocked', 'usageLimited', 'budgetLimited', 'complete']));
export const ThreadGoal = named(
  'ThreadGoal',
  z.object({
    threadId: z.string(),
    objective: z.string(),
    status: ThreadGoalStatus,
    tokenBudget: z.number().int().nullable(),
    tokensUsed: z.number().int(),
    timeUsedSeconds: z.number().int(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  }),
);
