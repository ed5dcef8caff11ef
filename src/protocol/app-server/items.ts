// Thread items and user input of the app-server protocol: what a turn is made of, in Codex's
// camelCase shapes (`ThreadItem` tagged by `type`). rig emits the variants below; the others of
// Codex's union (hook prompts, collab agents, image generation, review mode, ...) rig never produces.
import { z } from 'zod';
import { JsonValue, named } from './common.js';

export const ByteRange = named('ByteRange', z.object({ start: z.number().int(), end: z.number().int() }));
export const TextElement = named('TextElement', z.object({ byteRange: ByteRange, placeholder: z.string().nullable() }));
export const ImageDetail = named('ImageDetail', z.enum(['auto', 'low', 'high', 'original']));

export const UserInput = named(
  'UserInput',
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string(), text_elements: z.array(TextElement).optional() }),
    z.object({ type: z.literal('image'), url: z.string(), detail: ImageDetail.optional() }),
    z.object({ type: z.literal('localImage'), path: z.string(), detail: ImageDetail.optional() }),
    z.object({ type: z.literal('skill'), name: z.string(), path: z.string() }),
    z.object({ type: z.literal('mention'), name: z.string(), path: z.string() }),
  ]),
);
export type UserInput = z.infer<typeof UserInput>;

export const CommandAction = named(
  'CommandAction',
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('read'), command: z.string(), name: z.string(), path: z.string() }),
    z.object({ type: z.literal('listFiles'), command: z.string(), path: z.string().nullable() }),
    z.object({ type: z.literal('search'), command: z.string(), query: z.string().nullable(), path: z.string().nullable() }),
    z.object({ type: z.literal('unknown'), command: z.string() }),
  ]),
);
export type CommandAction = z.infer<typeof CommandAction>;

export const CommandExecutionStatus = named('CommandExecutionStatus', z.enum(['inProgress', 'completed', 'failed', 'declined']));
export const CommandExecutionSource = named('CommandExecutionSource', z.enum(['agent', 'userShell', 'unifiedExecStartup', 'unifiedExecInteraction']));
export const PatchApplyStatus = named('PatchApplyStatus', z.enum(['inProgress', 'completed', 'failed', 'declined']));
export const PatchChangeKind = named(
  'PatchChangeKind',
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('add') }),
    z.object({ type: z.literal('delete') }),
    z.object({ type: z.literal('update'), move_path: z.string().nullable() }),
  ]),
);
export const FileUpdateChange = named('FileUpdateChange', z.object({ path: z.string(), kind: PatchChangeKind, diff: z.string() }));
export const McpToolCallStatus = named('McpToolCallStatus', z.enum(['inProgress', 'completed', 'failed']));
export const McpToolCallResult = named(
  'McpToolCallResult',
  z.object({ content: z.array(JsonValue), structuredContent: JsonValue.nullable(), _meta: JsonValue.nullable() }),
);
export const McpToolCallError = named('McpToolCallError', z.object({ message: z.string() }));
export const MessagePhase = named('MessagePhase', z.enum(['commentary', 'partial_answer', 'final_answer']));

export const ThreadItem = named(
  'ThreadItem',
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('userMessage'), id: z.string(), clientId: z.string().nullable(), content: z.array(UserInput) }),
    z.object({
      type: z.literal('agentMessage'),
      id: z.string(),
      text: z.string(),
      phase: MessagePhase.nullable(),
      memoryCitation: z.null(),
      delivery: z.null(),
      questions: z.null(),
    }),
    z.object({ type: z.literal('plan'), id: z.string(), text: z.string() }),
    z.object({ type: z.literal('reasoning'), id: z.string(), summary: z.array(z.string()), content: z.array(z.string()) }),
    z.object({
      type: z.literal('commandExecution'),
      id: z.string(),
      pluginId: z.string().nullable(),
      scriptPath: z.string().nullable(),
      command: z.string(),
      cwd: z.string(),
      processId: z.string().nullable(),
      source: CommandExecutionSource,
      status: CommandExecutionStatus,
      commandActions: z.array(CommandAction),
      aggregatedOutput: z.string().nullable(),
      exitCode: z.number().int().nullable(),
      durationMs: z.number().int().nullable(),
    }),
    z.object({ type: z.literal('fileChange'), id: z.string(), changes: z.array(FileUpdateChange), status: PatchApplyStatus }),
    z.object({
      type: z.literal('mcpToolCall'),
      id: z.string(),
      server: z.string(),
      tool: z.string(),
      status: McpToolCallStatus,
      arguments: JsonValue,
      appContext: z.null(),
      mcpAppUi: z.null(),
      pluginId: z.string().nullable(),
      readOnlyHint: z.boolean().nullable(),
      result: McpToolCallResult.nullable(),
      error: McpToolCallError.nullable(),
      durationMs: z.number().int().nullable(),
    }),
    z.object({ type: z.literal('webSearch'), id: z.string(), query: z.string(), action: z.null(), results: z.array(JsonValue).nullable() }),
    z.object({ type: z.literal('contextCompaction'), id: z.string() }),
    z.object({ type: z.literal('enteredReviewMode'), id: z.string(), review: z.string() }),
    // rig adds the structured findings (Codex's review output fields) next to the review text.
    z.object({
      type: z.literal('exitedReviewMode'),
      id: z.string(),
      review: z.string(),
      reviewOutput: JsonValue.nullable().optional(),
      reviewError: z.object({ message: z.string(), raw: z.string() }).nullable().optional(),
    }),
  ]),
);
export type ThreadItem = z.infer<typeof ThreadItem>;
export type ThreadItemOf<T extends ThreadItem['type']> = Extract<ThreadItem, { type: T }>;
