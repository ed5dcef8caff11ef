// Server-to-client notifications and requests of the app-server protocol that rig sends: the
// thread, turn and item lifecycle, streaming deltas, token usage, errors, and the approval
// requests a client answers (commands, file changes, MCP questions and tool calls, network access,
// the model's questions to the person).
import { z } from 'zod';
import { RequestId, named, notification } from './common.js';
import { CommandAction, ThreadItem } from './items.js';
import { Thread, ThreadGoal, ThreadStatus, ThreadTokenUsage, Turn, TurnError } from './thread.js';

const threadRef = { threadId: z.string() };
const itemRef = { threadId: z.string(), turnId: z.string(), itemId: z.string() };

export const TurnPlanStep = named('TurnPlanStep', z.object({ step: z.string(), status: z.enum(['pending', 'inProgress', 'completed']) }));

/** Every notification rig sends, by method name. */
export const SERVER_NOTIFICATIONS = {
  'thread/started': notification('ThreadStartedNotification', z.object({ thread: Thread })),
  'thread/status/changed': notification('ThreadStatusChangedNotification', z.object({ ...threadRef, status: ThreadStatus })),
  'thread/archived': notification('ThreadArchivedNotification', z.object(threadRef)),
  'thread/unarchived': notification('ThreadUnarchivedNotification', z.object(threadRef)),
  'thread/closed': notification('ThreadClosedNotification', z.object(threadRef)),
  'thread/name/updated': notification('ThreadNameUpdatedNotification', z.object({ ...threadRef, threadName: z.string().optional() })),
  'thread/goal/updated': notification('ThreadGoalUpdatedNotification', z.object({ ...threadRef, turnId: z.string().nullable(), goal: ThreadGoal })),
  'thread/goal/cleared': notification('ThreadGoalClearedNotification', z.object(threadRef)),
  'thread/tokenUsage/updated': notification(
    'ThreadTokenUsageUpdatedNotification',
    z.object({ ...threadRef, turnId: z.string(), tokenUsage: ThreadTokenUsage }),
  ),
  'turn/started': notification('TurnStartedNotification', z.object({ ...threadRef, turn: Turn })),
  'turn/completed': notification('TurnCompletedNotification', z.object({ ...threadRef, turn: Turn })),
  'turn/plan/updated': notification(
    'TurnPlanUpdatedNotification',
    z.object({ ...threadRef, turnId: z.string(), explanation: z.string().nullable(), plan: z.array(TurnPlanStep) }),
  ),
  'item/started': notification(
    'ItemStartedNotification',
    z.object({ item: ThreadItem, threadId: z.string(), turnId: z.string(), startedAtMs: z.number().int() }),
  ),
  'item/completed': notification(
    'ItemCompletedNotification',
    z.object({ item: ThreadItem, threadId: z.string(), turnId: z.string(), completedAtMs: z.number().int() }),
  ),
  'item/agentMessage/delta': notification('AgentMessageDeltaNotification', z.object({ ...itemRef, delta: z.string() })),
  'item/reasoning/summaryTextDelta': notification(
    'ReasoningSummaryTextDeltaNotification',
    z.object({ ...itemRef, delta: z.string(), summaryIndex: z.number().int() }),
  ),
  'item/commandExecution/outputDelta': notification('CommandExecutionOutputDeltaNotification', z.object({ ...itemRef, delta: z.string() })),
  'serverRequest/resolved': notification('ServerRequestResolvedNotification', z.object({ ...threadRef, requestId: RequestId })),
  error: notification(
    'ErrorNotification',
    z.object({ error: TurnError, willRetry: z.boolean(), threadId: z.string(), turnId: z.string() }),
  ),
  warning: notification('WarningNotification', z.object({ threadId: z.string().nullable(), message: z.string() })),
} as const;

export type ServerNotificationMethod = keyof typeof SERVER_NOTIFICATIONS;
export type NotificationParams<M extends ServerNotificationMethod> = z.infer<(typeof SERVER_NOTIFICATIONS)[M]['params']>;

export const CommandExecutionApprovalDecision = named(
  'CommandExecutionApprovalDecision',
  z.union([
    z.enum(['accept', 'acceptForSession', 'decline', 'cancel']),
    z.object({ acceptWithExecpolicyAmendment: z.object({ execpolicy_amendment: z.array(z.string()) }) }),
  ]),
);
export const FileChangeApprovalDecision = named('FileChangeApprovalDecision', z.enum(['accept', 'acceptForSession', 'decline', 'cancel']));

const approvalRef = { threadId: z.string(), turnId: z.string(), itemId: z.string(), startedAtMs: z.number().int() };

/** Requests rig sends to the client, which must answer them. */
export const SERVER_REQUESTS = {
  'item/commandExecution/requestApproval': {
    typeName: 'CommandExecutionRequestApproval',
    params: named(
      'CommandExecutionRequestApprovalParams',
      z.object({
        kind: z.literal('command'),
        ...approvalRef,
        approvalId: z.string().nullable(),
        environmentId: z.string().nullable(),
        reason: z.string().nullable(),
        command: z.string(),
        cwd: z.string(),
        commandActions: z.array(CommandAction),
        proposedExecpolicyAmendment: z.array(z.string()).nullable(),
      }),
    ),
    result: named('CommandExecutionRequestApprovalResponse', z.looseObject({ decision: CommandExecutionApprovalDecision })),
  },
  'item/fileChange/requestApproval': {
    typeName: 'FileChangeRequestApproval',
    params: named(
      'FileChangeRequestApprovalParams',
      z.object({ ...approvalRef, reason: z.string().nullable(), grantRoot: z.string().nullable() }),
    ),
    result: named('FileChangeRequestApprovalResponse', z.looseObject({ decision: FileChangeApprovalDecision })),
  },
  // Codex asks both an MCP server's own questions and its MCP tool-call approvals with this request
  // (the latter a form without fields, `_meta.codex_approval_kind = "mcp_tool_call"`).
  'mcpServer/elicitation/request': {
    typeName: 'McpServerElicitationRequest',
    params: named(
      'McpServerElicitationRequestParams',
      z.intersection(
        z.object({ threadId: z.string(), turnId: z.string().nullable(), serverName: z.string() }),
        z.union([
          z.object({ mode: z.literal('form'), message: z.string(), requestedSchema: z.looseObject({ type: z.literal('object'), properties: z.record(z.string(), z.unknown()) }), _meta: z.unknown().optional() }),
          z.object({ mode: z.literal('url'), message: z.string(), url: z.string(), elicitationId: z.string(), _meta: z.unknown().optional() }),
        ]),
      ),
    ),
    result: named(
      'McpServerElicitationRequestResponse',
      z.looseObject({ action: z.enum(['accept', 'decline', 'cancel']), content: z.unknown().optional(), _meta: z.unknown().optional() }),
    ),
  },
  // The model's questions to the person (request_user_input, AskUserQuestion): answers by question id.
  'item/tool/requestUserInput': {
    typeName: 'ToolRequestUserInput',
    params: named(
      'ToolRequestUserInputParams',
      z.object({
        threadId: z.string(),
        turnId: z.string(),
        itemId: z.string(),
        questions: z.array(
          named(
            'ToolRequestUserInputQuestion',
            z.object({
              id: z.string(),
              header: z.string(),
              question: z.string(),
              isOther: z.boolean(),
              isSecret: z.boolean(),
              options: z.array(named('ToolRequestUserInputOption', z.object({ label: z.string(), description: z.string() }))).nullable(),
            }),
          ),
        ),
        isBlocking: z.boolean(),
        autoResolutionMs: z.number().int().nullable(),
      }),
    ),
    result: named(
      'ToolRequestUserInputResponse',
      z.looseObject({ answers: z.record(z.string(), named('ToolRequestUserInputAnswer', z.looseObject({ answers: z.array(z.string()) }))) }),
    ),
  },
  // rig asks its own network requests (web_fetch, a search backend) as a grant of network access.
  'item/permissions/requestApproval': {
    typeName: 'PermissionsRequestApproval',
    params: named(
      'PermissionsRequestApprovalParams',
      z.object({
        ...approvalRef,
        cwd: z.string(),
        environmentId: z.string().nullable(),
        reason: z.string().nullable(),
        permissions: z.object({ network: z.object({ enabled: z.boolean().nullable() }).nullable(), fileSystem: z.null() }),
      }),
    ),
    result: named(
      'PermissionsRequestApprovalResponse',
      z.looseObject({ permissions: z.looseObject({ network: z.looseObject({ enabled: z.boolean().nullable().optional() }).nullable().optional() }), scope: z.enum(['turn', 'session']).optional() }),
    ),
  },
} as const;

export type ServerRequestMethod = keyof typeof SERVER_REQUESTS;
