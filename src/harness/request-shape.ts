// Applies a harness profile's request shaping to a neutral ModelRequest. Pure: the same inputs give
// the same request, nothing is read from disk or kept between calls (the caller supplies the clock,
// cwd and folder listing through ShapeEnvironment).
import type {
  ContentPart,
  ConversationItem,
  MessageItem,
  ToolOutput,
} from '../protocol/index.js';
import type { ModelRequest, WireApi } from '../model/types.js';
import type { HarnessProfile } from './profile.js';
import type { ToolResultRendering } from './profile-schema.js';
import { FORMAT_ERROR_TOOL, INITIAL_SCREEN_CALL_ID } from './text-protocol/actions.js';
import { applyInstanceTemplate } from './instance-template.js';

export interface ShapeEnvironment {
  now: Date;
  cwd: string;
  /** e.g. `linux`, `darwin`. */
  os: string;
  shell?: string;
  /** Folder listing for startup-context slots (see folderListing in startup-context.ts). */
  tree?: string;
  /** The wire the request goes out on; selects `extra_body_by_wire`. */
  wire?: WireApi;
  /** `uname -srvm` for instance templates; the running machine's when unset. */
  systemInformation?: string;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

function isoDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** `Weekday, Month D, YYYY` (the long date Gemini-lineage agents show), in UTC. */
export function longDate(now: Date): string {
  return `${WEEKDAYS[now.getUTCDay()]}, ${MONTHS[now.getUTCMonth()]} ${now.getUTCDate()}, ${now.getUTCFullYear()}`;
}

/**
 * Fills `{{name}}` slots: cwd, date (YYYY-MM-DD), long_date, os, shell, tree, model. Unknown slots
 * are left as written so a user's own prompt may contain literal braces.
 */
export function renderTemplate(template: string, env: ShapeEnvironment, model: string): string {
  const values: Record<string, string> = {
    cwd: env.cwd,
    date: isoDate(env.now),
    long_date: longDate(env.now),
    os: env.os,
    shell: env.shell ?? 'bash',
    tree: env.tree ?? '',
    model,
  };
  return template.replace(/\{\{([a-z_]+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}

function textPart(role: MessageItem['role'], text: string): ContentPart {
  return role === 'assistant' ? { type: 'output_text', text } : { type: 'input_text', text };
}

/**
 * Renders one tool output the way the profile's original shows tool results to the model. `tool`
 * is the name of the tool that produced it (for `plain_errors`).
 */
export function renderToolOutput(rendering: ToolResultRendering, output: ToolOutput, isError: boolean, tool?: string): ToolOutput {
  const wrap = isError && !(tool !== undefined && rendering.plain_errors.includes(tool));
  const renderText = (text: string): string => {
    let out = rendering.trim ? text.trim() : text;
    if (out === '' && rendering.empty_output !== undefined) out = rendering.empty_output;
    if (wrap) out = rendering.error_template.replace('{text}', out);
    return rendering.prefix + out;
  };
  if (typeof output === 'string') return renderText(output);
  const texts = output.filter((part) => part.type !== 'input_image');
  if (texts.length === 0) return output;
  let renderedFirst = false;
  return output.map((part) => {
    if (part.type === 'input_image' || renderedFirst) return part;
    renderedFirst = true;
    return { ...part, text: renderText(part.text) };
  });
}

function reshapeItem(profile: Pick<HarnessProfile, 'request'>, item: ConversationItem, toolNames: ReadonlyMap<string, string>): ConversationItem[] {
  const shape = profile.request;
  switch (item.type) {
    case 'reasoning':
      return shape.reasoning === 'drop' ? [] : [item];
    case 'message': {
      if (item.role === 'developer') {
        if (shape.developer_role === 'drop') return [];
        if (shape.developer_role !== 'developer') return [{ ...item, role: shape.developer_role }];
        return [item];
      }
      if (item.role === 'user' && shape.user_text === 'json-quoted') {
        return [
          {
            ...item,
            content: item.content.map((part) =>
              part.type === 'input_text' ? { ...part, text: JSON.stringify(part.text) } : part,
            ),
          },
        ];
      }
      return [item];
    }
    case 'function_call':
    case 'custom_tool_call':
      // Text-protocol harnesses: the action lives in the assistant text that was already replayed.
      return shape.tool_results.as_user_message ? [] : [item];
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const output = renderToolOutput(shape.tool_results, item.output, item.is_error === true, toolNames.get(item.call_id));
      if (shape.tool_results.as_user_message) {
        const content: ContentPart[] =
          typeof output === 'string' ? [{ type: 'input_text', text: output }] : output;
        return [{ type: 'message', role: 'user', content }];
      }
      return [{ ...item, output }];
    }
  }
}

/** Returns a new request with the profile's prompt, startup context, limits and extras applied. */
export function shapeRequest(
  profile: Pick<HarnessProfile, 'prompt' | 'request' | 'instanceTemplate'>,
  request: ModelRequest,
  env: ShapeEnvironment,
): ModelRequest {
  const shape = profile.request;
  const prompt = renderTemplate(profile.prompt, env, request.model).trimEnd();
  const instructions = [prompt, request.instructions].filter((text) => text !== '').join('\n\n');
  let input: ConversationItem[] = [];
  // The terminal screen the driver captured before the first reply (Terminus 2) belongs in the
  // instance template, not in the conversation.
  let terminalState: string | undefined;
  // A text-protocol format error is not a tool the model knows: the call vanishes and its message
  // goes back as a plain user message, as the originals send it.
  const formatErrors = new Set(
    request.input.flatMap((item) => (item.type === 'function_call' && item.name === FORMAT_ERROR_TOOL ? [item.call_id] : [])),
  );
  const toolNames = new Map(
    request.input.flatMap((item) => (item.type === 'function_call' || item.type === 'custom_tool_call' ? [[item.call_id, item.name] as const] : [])),
  );
  for (const item of request.input) {
    if ((item.type === 'function_call' || item.type === 'function_call_output') && item.call_id === INITIAL_SCREEN_CALL_ID) {
      if (item.type === 'function_call_output') terminalState = typeof item.output === 'string' ? item.output : item.output.map((part) => ('text' in part ? part.text : '')).join('');
      continue;
    }
    if (formatErrors.size > 0 && item.type === 'function_call' && formatErrors.has(item.call_id)) continue;
    if (formatErrors.size > 0 && item.type === 'function_call_output' && formatErrors.has(item.call_id)) {
      const content: ContentPart[] = typeof item.output === 'string' ? [{ type: 'input_text', text: item.output }] : item.output;
      input.push({ type: 'message', role: 'user', content });
      continue;
    }
    input.push(...reshapeItem(profile, item, toolNames));
  }
  if (profile.instanceTemplate !== undefined) {
    const slots = {
      ...(env.systemInformation !== undefined ? { systemInformation: env.systemInformation } : {}),
      ...(terminalState !== undefined ? { terminalState } : {}),
    };
    input = applyInstanceTemplate(profile.instanceTemplate, input, slots, (text) => renderTemplate(text, env, request.model));
  }
  const startup = shape.startup_context;
  if (startup) {
    const text = startup.wrap.replace('{text}', renderTemplate(startup.text, env, request.model));
    const firstUser = input.findIndex((item) => item.type === 'message' && item.role === 'user');
    const target = input[firstUser];
    if (startup.placement === 'first-user-message' && target?.type === 'message') {
      input[firstUser] = { ...target, content: [textPart('user', text), ...target.content] };
    } else {
      const lead: ConversationItem[] = [{ type: 'message', role: 'user', content: [textPart('user', text)] }];
      if (startup.reply !== undefined) {
        lead.push({ type: 'message', role: 'assistant', content: [textPart('assistant', startup.reply)] });
      }
      input.unshift(...lead);
    }
  }
  const shaped: ModelRequest = { ...request, instructions, input };
  if (shape.max_tokens !== undefined) shaped.maxOutputTokens = shape.max_tokens;
  if (shape.temperature !== undefined) shaped.temperature = shape.temperature;
  const wireBody = env.wire ? shape.extra_body_by_wire[env.wire] : undefined;
  const extraBody: Record<string, unknown> = { ...request.extraBody, ...shape.extra_body, ...wireBody };
  if (!shape.stream) extraBody['stream'] = false;
  if (Object.keys(extraBody).length > 0) shaped.extraBody = extraBody;
  if (Object.keys(shape.extra_headers).length > 0) {
    shaped.extraHeaders = { ...request.extraHeaders, ...shape.extra_headers };
  }
  return shaped;
}
