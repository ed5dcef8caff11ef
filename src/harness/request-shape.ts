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
import { effectiveSettings, reshapeTools, toWireShape } from './request-settings.js';

/** Codex's environment block, which only the native harness sends (request.environment_context). */
const ENVIRONMENT_CONTEXT = '<environment_context>';
/** Text parts the engine injects at the start of a thread (AGENTS.md, environment): not the user's prompt. */
const INJECTED_CONTEXT = [ENVIRONMENT_CONTEXT, '# AGENTS.md instructions', '<user_instructions>'];

function isInjectedContext(item: ConversationItem): boolean {
  if (item.type !== 'message' || item.role !== 'user') return false;
  const texts = item.content.flatMap((part) => (part.type === 'input_image' ? [] : [part.text.trimStart()]));
  return texts.length > 0 && texts.every((text) => INJECTED_CONTEXT.some((tag) => text.startsWith(tag)));
}

/** The input without Codex's environment block; a message left empty goes too. */
function withoutEnvironmentContext(input: ConversationItem[]): ConversationItem[] {
  return input.flatMap((item): ConversationItem[] => {
    if (item.type !== 'message' || item.role !== 'user') return [item];
    const content = item.content.filter((part) => part.type === 'input_image' || !part.text.trimStart().startsWith(ENVIRONMENT_CONTEXT));
    if (content.length === item.content.length) return [item];
    return content.length > 0 ? [{ ...item, content }] : [];
  });
}

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
  /** The user's home directory, for the `{{home}}` slot of captured prompts. */
  home?: string;
  /** The temp directory, for the `{{tmpdir}}` slot of captured prompts. */
  tmpdir?: string;
  /**
   * The names of the tools this session defers behind tool search, for the `{{deferred_tools}}`
   * slot: rendered from the session's tools, so the prompt never names one that was left out.
   */
  deferredTools?: readonly string[];
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

/** `Www Mmm DD YYYY` (JavaScript's Date#toDateString, which opencode's prompt shows), in UTC. */
export function dateString(now: Date): string {
  const day = now.toUTCString().slice(0, 3);
  const month = MONTHS[now.getUTCMonth()]!.slice(0, 3);
  return `${day} ${month} ${String(now.getUTCDate()).padStart(2, '0')} ${now.getUTCFullYear()}`;
}

/**
 * Fills `{{name}}` slots: cwd, home, tmpdir, date (YYYY-MM-DD), long_date, date_string, os, shell,
 * tree, model, deferred_tools (comma-separated, `(none)` when there are none). Unknown slots are left as written so a user's own prompt may contain literal braces.
 */
export function renderTemplate(template: string, env: ShapeEnvironment, model: string): string {
  const values: Record<string, string> = {
    cwd: env.cwd,
    date: isoDate(env.now),
    long_date: longDate(env.now),
    date_string: dateString(env.now),
    home: env.home ?? '~',
    tmpdir: env.tmpdir ?? '/tmp',
    os: env.os,
    shell: env.shell ?? 'bash',
    tree: env.tree ?? '',
    model,
    deferred_tools: env.deferredTools?.length ? env.deferredTools.join(', ') : '(none)',
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
    case 'web_search_call':
      return [item];
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

interface ReshapedEntry {
  tool: string | undefined;
  items: ConversationItem[];
}

// Per profile request shape, what each history item became: items never change once appended, so
// every request of a thread would otherwise rebuild the same objects (and the wire re-lower and
// re-encode them, where it keeps its work per item: see stableJson).
const reshapedItems = new WeakMap<object, WeakMap<ConversationItem, ReshapedEntry>>();

function reshapeItemOnce(profile: Pick<HarnessProfile, 'request'>, item: ConversationItem, toolNames: ReadonlyMap<string, string>): ConversationItem[] {
  let byItem = reshapedItems.get(profile.request);
  if (!byItem) reshapedItems.set(profile.request, (byItem = new WeakMap()));
  const tool = 'call_id' in item ? toolNames.get(item.call_id) : undefined;
  const entry = byItem.get(item);
  if (entry && entry.tool === tool) return entry.items;
  const items = reshapeItem(profile, item, toolNames);
  byItem.set(item, { tool, items });
  return items;
}

/** Returns a new request with the profile's prompt, startup context, limits and extras applied. */
export function shapeRequest(
  profile: Pick<HarnessProfile, 'prompt' | 'request' | 'instanceTemplate'> & Partial<Pick<HarnessProfile, 'tools'>>,
  request: ModelRequest,
  env: ShapeEnvironment,
): ModelRequest {
  const shape = profile.request;
  const prompt = renderTemplate(profile.prompt, env, request.model).trimEnd();
  const instructions = [prompt, request.instructions].filter((text) => text !== '').join('\n\n');
  let input: ConversationItem[] = [];
  const source = shape.environment_context === 'keep' ? request.input : withoutEnvironmentContext(request.input);
  // The terminal screen the driver captured before the first reply (Terminus 2) belongs in the
  // instance template, not in the conversation.
  let terminalState: string | undefined;
  // A text-protocol format error is not a tool the model knows: the call vanishes and its message
  // goes back as a plain user message, as the originals send it.
  // Loops, not flatMap: this runs over the whole history on every request.
  const formatErrors = new Set<string>();
  const toolNames = new Map<string, string>();
  for (const item of source) {
    if (item.type !== 'function_call' && item.type !== 'custom_tool_call') continue;
    toolNames.set(item.call_id, item.name);
    if (item.type === 'function_call' && item.name === FORMAT_ERROR_TOOL) formatErrors.add(item.call_id);
  }
  for (const item of source) {
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
    input.push(...reshapeItemOnce(profile, item, toolNames));
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
    const texts = [...(startup.text !== undefined ? [startup.text] : []), ...(startup.parts ?? [])].map((text) =>
      startup.wrap.replace('{text}', renderTemplate(text, env, request.model)),
    );
    // The user's prompt message, not the AGENTS.md / environment message the engine put before it.
    const firstUser = input.findIndex((item) => item.type === 'message' && item.role === 'user' && !isInjectedContext(item));
    const target = input[firstUser];
    if (startup.placement === 'first-user-message' && target?.type === 'message') {
      input[firstUser] = { ...target, content: [...texts.map((text) => textPart('user', text)), ...target.content] };
    } else {
      const lead: ConversationItem[] = [{ type: 'message', role: 'user', content: texts.map((text) => textPart('user', text)) }];
      if (startup.reply !== undefined) {
        lead.push({ type: 'message', role: 'assistant', content: [textPart('assistant', startup.reply)] });
      }
      input.unshift(...lead);
    }
  }
  const settings = effectiveSettings(shape, env.wire, request.model);
  const reshaped = reshapeTools(request.tools, profile.tools, env.wire, settings);
  const withoutParameters = reshaped.withoutParameters;
  // Captured descriptions carry the same slots as captured prompts (a temp dir, the workspace).
  const tools = reshaped.tools.map((tool) => (tool.description.includes('{{') ? { ...tool, description: renderTemplate(tool.description, env, request.model) } : tool));
  const shaped: ModelRequest = { ...request, instructions, input, tools };
  if (settings.maxTokens !== undefined) shaped.maxOutputTokens = settings.maxTokens;
  if (settings.temperature !== undefined) shaped.temperature = settings.temperature;
  if (settings.parallelToolCalls !== undefined) shaped.parallelToolCalls = settings.parallelToolCalls;
  // The user's configured effort and verbosity win over the original's per-model defaults.
  if (settings.reasoningEffort !== undefined && request.reasoningEffort === undefined) shaped.reasoningEffort = settings.reasoningEffort;
  if (settings.verbosity !== undefined && request.verbosity === undefined) shaped.verbosity = settings.verbosity;
  const extraBody: Record<string, unknown> = { ...request.extraBody, ...settings.extraBody };
  if (!shape.stream) extraBody['stream'] = false;
  if (Object.keys(extraBody).length > 0) shaped.extraBody = extraBody;
  if (Object.keys(settings.extraHeaders).length > 0) {
    shaped.extraHeaders = { ...request.extraHeaders, ...settings.extraHeaders };
  }
  const wireShape = toWireShape({
    ...settings.wireShape,
    ...(withoutParameters.length > 0 ? { tools_without_parameters: withoutParameters } : {}),
  });
  if (wireShape) shaped.wireShape = wireShape;
  return shaped;
}
