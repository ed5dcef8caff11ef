// Turns the first main requests an original sent (one per wire) into a harness profile: its exact
// system prompt (with the workspace, home, date and model made into slots), its tools with their
// descriptions and schemas per wire, each bound to rig's capability by the built-in profile of the
// same id, and the request fields per wire (order, output cap, tool_choice, where the prompt goes,
// cache breakpoints, extra fields). What rig cannot or must not send is listed as omitted, with
// the reason. Pure: the caller reads and writes the files.
import { isDeepStrictEqual } from 'node:util';
import type { WireApi } from '../../model/types.js';
import { longDate } from '../request-shape.js';

export interface CapturedRequest {
  wire: WireApi;
  path: string;
  headers: [string, string][];
  body: Record<string, unknown>;
}

export interface CaptureContext {
  id: string;
  agent: string;
  version: string;
  bin: string;
  /** When the runs happened. */
  now: Date;
  prompt: string;
  workspace: string;
  home: string;
  model: string | undefined;
  /** The built-in profile of the same id, as its JSON file holds it. */
  builtin: Record<string, unknown>;
  /** Absolute path of the built-in's directory, for its instance template. */
  builtinDir: string;
}

export interface Omission {
  what: string;
  reason: string;
}

export interface WrittenProfile {
  profile: Record<string, unknown>;
  prompt: string;
  omitted: Omission[];
}

/** Body fields rig builds itself from the conversation, the tools and the settings below. */
const MODELLED = new Set([
  'model', 'messages', 'input', 'instructions', 'system', 'tools', 'tool_choice', 'parallel_tool_calls', 'stream', 'stream_options',
  'store', 'max_tokens', 'max_completion_tokens', 'max_output_tokens', 'temperature', 'prompt_cache_key', 'include', 'reasoning', 'text',
]);
/** Fields that identify the original's client, install or user: never copied (reference §8). */
const IDENTITY = new Map([
  ['metadata', 'holds the original\'s user, device or session ids'],
  ['client_metadata', 'holds the original\'s installation, window and turn ids'],
  ['user', 'identifies the original\'s user'],
  ['session_id', 'is the original\'s session id'],
  ['safety_identifier', 'identifies the original\'s user'],
]);

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content.map((part: Record<string, unknown>) => (typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

/** The slots rig fills at request time, put where the capture had the run's own values. */
export function templatize(text: string, ctx: Pick<CaptureContext, 'workspace' | 'home' | 'now' | 'model'>): string {
  const replace = (input: string, needle: string, slot: string): string => (needle.length >= 4 ? input.split(needle).join(slot) : input);
  let out = replace(text, ctx.workspace, '{{cwd}}');
  // The run's TMPDIR lives in its throwaway home (run.ts cleanEnv).
  out = replace(out, `${ctx.home}/tmp`, '{{tmpdir}}');
  out = replace(out, ctx.home, '{{home}}');
  const now = ctx.now;
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
  for (const day of new Set([now, local])) {
    out = replace(out, day.toISOString().slice(0, 10), '{{date}}');
    out = replace(out, longDate(day), '{{long_date}}');
  }
  out = replace(out, now.toDateString(), '{{date_string}}');
  if (ctx.model && ctx.model.length >= 6) out = replace(out, ctx.model, '{{model}}');
  return out;
}

interface WireTool {
  name: string;
  kind: 'function' | 'custom' | 'builtin';
  description?: string;
  parameters: Record<string, unknown> | null;
  extras: Record<string, unknown>;
}

function wireTools(wire: WireApi, body: Record<string, unknown>): WireTool[] {
  const tools = (Array.isArray(body['tools']) ? body['tools'] : []) as Record<string, unknown>[];
  return tools.map((tool): WireTool => {
    if (wire === 'chat') {
      const { name, description, parameters, ...extras } = (tool['function'] ?? {}) as Record<string, unknown>;
      return { name: String(name), kind: 'function', ...(typeof description === 'string' ? { description } : {}), parameters: (parameters as Record<string, unknown>) ?? null, extras };
    }
    if (wire === 'messages') {
      const { name, description, input_schema, cache_control: _c, type, ...extras } = tool;
      const kind = type === undefined || type === 'custom' ? 'function' : 'builtin';
      return { name: String(name ?? type), kind, ...(typeof description === 'string' ? { description } : {}), parameters: (input_schema as Record<string, unknown>) ?? null, extras };
    }
    const { name, description, parameters, type, format: _f, ...extras } = tool;
    const kind = type === 'function' ? 'function' : type === 'custom' ? 'custom' : 'builtin';
    return { name: String(name ?? type), kind, ...(typeof description === 'string' ? { description } : {}), parameters: (parameters as Record<string, unknown>) ?? null, extras };
  });
}

/** The system prompt on one wire, and how it is placed. */
function systemOf(wire: WireApi, body: Record<string, unknown>): { text: string; placement: 'instructions' | 'system-item' | 'developer-item'; blocks: number; role?: string } {
  if (wire === 'messages') {
    const system = body['system'];
    if (typeof system === 'string') return { text: system, placement: 'instructions', blocks: 1 };
    const blocks = Array.isArray(system) ? (system as Record<string, unknown>[]) : [];
    return { text: blocks.map((block) => String(block['text'] ?? '')).join('\n\n'), placement: 'instructions', blocks: blocks.length };
  }
  const items = ((wire === 'chat' ? body['messages'] : body['input']) ?? []) as Record<string, unknown>[];
  if (wire === 'responses' && typeof body['instructions'] === 'string') return { text: body['instructions'], placement: 'instructions', blocks: 1 };
  const first = items[0];
  if (first && (first['role'] === 'system' || first['role'] === 'developer')) {
    const placement = wire === 'chat' ? 'instructions' : first['role'] === 'system' ? 'system-item' : 'developer-item';
    return { text: textOf(first['content']) ?? '', placement, blocks: 1, role: String(first['role']) };
  }
  return { text: '', placement: 'instructions', blocks: 0 };
}

interface PromptMessage {
  /** Text parts before the prompt in the same message (a startup context). */
  before: string[];
  quoted: boolean;
  parts: boolean;
  index: number;
  count: number;
}

function promptMessage(wire: WireApi, body: Record<string, unknown>, prompt: string): PromptMessage | undefined {
  const items = ((wire === 'responses' ? body['input'] : body['messages']) ?? []) as Record<string, unknown>[];
  const messages = items.filter((item) => item['type'] === undefined || item['type'] === 'message');
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message['role'] !== 'user') continue;
    const content = message['content'];
    for (const quoted of [false, true]) {
      const wanted = quoted ? JSON.stringify(prompt) : prompt;
      if (content === wanted) return { before: [], quoted, parts: false, index, count: messages.length };
      if (Array.isArray(content)) {
        const at = content.findIndex((part: Record<string, unknown>) => part['text'] === wanted);
        if (at >= 0) {
          const before = content.slice(0, at).map((part: Record<string, unknown>) => String(part['text'] ?? ''));
          return { before, quoted, parts: true, index, count: messages.length };
        }
      }
    }
  }
  return undefined;
}

/** Request settings of one wire, read off the body. */
function wireSettings(request: CapturedRequest, omitted: Omission[]): Record<string, unknown> {
  const { wire, body } = request;
  const settings: Record<string, unknown> = {};
  const shape: Record<string, unknown> = { field_order: Object.keys(body) };
  const system = systemOf(wire, body);
  if (wire === 'responses' && system.placement !== 'instructions') shape['system'] = system.placement;
  const tools = Array.isArray(body['tools']) ? (body['tools'] as Record<string, unknown>[]) : [];
  if (tools.length > 0) shape['tool_choice'] = 'tool_choice' in body ? body['tool_choice'] : null;
  if ('parallel_tool_calls' in body) settings['parallel_tool_calls'] = body['parallel_tool_calls'];
  else shape['omit_parallel_tool_calls'] = true;
  if (typeof body['temperature'] === 'number') settings['temperature'] = body['temperature'];
  for (const field of ['max_tokens', 'max_completion_tokens', 'max_output_tokens']) {
    if (typeof body[field] === 'number') settings['max_tokens'] = body[field];
  }
  if (wire === 'chat') {
    if ('max_completion_tokens' in body) shape['max_tokens_field'] = 'max_completion_tokens';
    shape['store'] = 'store' in body;
    shape['stream_usage'] = 'stream_options' in body;
    shape['user_content'] = 'string';
  }
  if (wire === 'responses') {
    shape['store'] = 'store' in body;
    const firstMessage = ((body['input'] ?? []) as Record<string, unknown>[]).find((item) => item['role'] !== undefined);
    if (firstMessage && firstMessage['type'] === undefined) shape['item_type_field'] = false;
    if (tools.length > 0 && tools.every((tool) => !('strict' in tool))) shape['omit_tool_strict'] = true;
    const reasoning = body['reasoning'] as Record<string, unknown> | undefined;
    if (typeof reasoning?.['effort'] === 'string') settings['reasoning_effort'] = reasoning['effort'];
    const text = body['text'] as Record<string, unknown> | undefined;
    if (typeof text?.['verbosity'] === 'string') settings['verbosity'] = text['verbosity'];
    if (reasoning && !('include' in body)) shape['include_encrypted_reasoning'] = false;
  }
  if (wire === 'messages') {
    const systemBlocks = Array.isArray(body['system']) ? (body['system'] as Record<string, unknown>[]) : [];
    const messages = (body['messages'] ?? []) as Record<string, unknown>[];
    const lastContent = messages.at(-1)?.['content'];
    const lastBlock = Array.isArray(lastContent) ? (lastContent.at(-1) as Record<string, unknown> | undefined) : undefined;
    shape['cache_control'] = {
      system: systemBlocks.some((block) => block['cache_control'] !== undefined),
      last_message: lastBlock?.['cache_control'] !== undefined,
      last_tool: tools.at(-1)?.['cache_control'] !== undefined,
    };
  }
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (MODELLED.has(key)) continue;
    const identity = IDENTITY.get(key);
    if (identity) omitted.push({ what: `${wire}: body field ${key}`, reason: `it ${identity}` });
    else extra[key] = value;
  }
  if (body['stream'] === false) extra['stream'] = false;
  const beta = request.headers.find(([name]) => name === 'anthropic-beta')?.[1];
  return {
    ...settings,
    ...(Object.keys(extra).length > 0 ? { extra_body: extra } : {}),
    ...(beta ? { extra_headers: { 'anthropic-beta': beta } } : {}),
    wire_shape: shape,
  };
}

/** The profile for the captured requests (at least one). */
export function buildCapturedProfile(captures: CapturedRequest[], ctx: CaptureContext): WrittenProfile {
  const omitted: Omission[] = [];
  const primary = captures[0]!;
  const builtin = ctx.builtin;
  const builtinTools = (Array.isArray(builtin['tools']) ? builtin['tools'] : []) as Record<string, unknown>[];
  const builtinByName = new Map(builtinTools.map((tool) => [String(tool['name']), tool]));

  // The prompt: the primary wire's system text; other wires must agree or are noted.
  const primarySystem = systemOf(primary.wire, primary.body);
  const prompt = templatize(primarySystem.text, ctx);
  for (const capture of captures) {
    const system = systemOf(capture.wire, capture.body);
    if (system.blocks > 1) omitted.push({ what: `${capture.wire}: ${system.blocks} system blocks`, reason: 'rig sends the system prompt as one block; the blocks are joined by a blank line' });
    if (system.role === 'developer' && capture.wire === 'chat') omitted.push({ what: 'chat: the developer role of the system message', reason: 'rig sends the system prompt as a system message' });
    if (capture !== primary && templatize(system.text, ctx) !== prompt) {
      omitted.push({ what: `${capture.wire}: its own system prompt`, reason: `it differs from the ${primary.wire} one, which rig sends on every wire` });
    }
  }

  // The prompt's message: parts before the prompt become the startup context.
  const found = promptMessage(primary.wire, primary.body, ctx.prompt);
  const startupParts = (found?.before ?? []).map((text) => templatize(text, ctx));
  if (!found) omitted.push({ what: 'the user message layout', reason: 'the prompt was not found as a text part of a user message' });
  for (const capture of captures) {
    const message = promptMessage(capture.wire, capture.body, ctx.prompt);
    if (!message) continue;
    const systemCount = systemOf(capture.wire, capture.body).text !== '' && capture.wire !== 'messages' && !(capture.wire === 'responses' && typeof capture.body['instructions'] === 'string') ? 1 : 0;
    const others = message.count - 1 - systemCount;
    if (others > 0) omitted.push({ what: `${capture.wire}: ${others} other message(s) around the prompt`, reason: 'rig sends the conversation it has; only text before the prompt in its own message is kept (startup context)' });
  }

  // Tools: the primary wire's list, bound by the built-in profile; other wires as per-wire schemas.
  const byWire = new Map(captures.map((capture) => [capture.wire, wireTools(capture.wire, capture.body)]));
  const tools: Record<string, unknown>[] = [];
  for (const tool of byWire.get(primary.wire) ?? []) {
    const bound = builtinByName.get(tool.name);
    if (!bound) {
      omitted.push({ what: `tool ${tool.name}`, reason: `the built-in ${ctx.id} profile binds no tool of that name to a capability of rig's` });
      continue;
    }
    if (tool.kind !== 'function') {
      // Freeform and server-side tools keep rig's own definition (grammar, builtin settings).
      if (tool.kind === 'builtin') {
        omitted.push({ what: `tool ${tool.name}`, reason: 'a server-side tool of the original\'s provider; not sent by rig' });
        continue;
      }
      tools.push({ name: tool.name, capability: bound['capability'], ...(bound['options'] ? { options: bound['options'] } : {}), source: `rig harness capture (${primary.wire}); rig's own definition of this freeform tool` });
      continue;
    }
    const entry: Record<string, unknown> = {
      name: tool.name,
      capability: bound['capability'],
      description: templatize(tool.description ?? '', ctx),
      parameters: tool.parameters,
      ...(bound['options'] ? { options: bound['options'] } : {}),
    };
    const parametersByWire: Record<string, unknown> = {};
    const extrasByWire: Record<string, unknown> = {};
    for (const capture of captures) {
      const onWire = byWire.get(capture.wire)?.find((other) => other.name === tool.name);
      if (!onWire) {
        omitted.push({ what: `${capture.wire}: tool ${tool.name} is not sent there`, reason: 'rig sends the same tool list on every wire' });
        continue;
      }
      if (capture !== primary && !isDeepStrictEqual(onWire.parameters, tool.parameters)) parametersByWire[capture.wire] = onWire.parameters;
      if (Object.keys(onWire.extras).length > 0) extrasByWire[capture.wire] = onWire.extras;
      if (capture !== primary && onWire.description !== tool.description) {
        omitted.push({ what: `${capture.wire}: the description of ${tool.name}`, reason: `it differs from the ${primary.wire} one, which rig sends on every wire` });
      }
    }
    if (Object.keys(parametersByWire).length > 0) entry['parameters_by_wire'] = parametersByWire;
    if (Object.keys(extrasByWire).length > 0) entry['extras_by_wire'] = extrasByWire;
    tools.push(entry);
  }
  // Tools the original names but does not send (deferred, hidden) stay as the built-in has them.
  const sent = new Set(tools.map((tool) => String(tool['name'])));
  for (const tool of builtinTools) {
    if (!sent.has(String(tool['name'])) && tool['exposure'] !== undefined && tool['exposure'] !== 'advertised') tools.push(tool);
  }

  // Request settings: what the original sends, per wire; the built-in's rendering rules stay.
  const builtinRequest = (builtin['request'] ?? {}) as Record<string, unknown>;
  const kept = ['tool_results', 'reasoning', 'developer_role', 'environment_context'];
  const request: Record<string, unknown> = Object.fromEntries(kept.filter((key) => key in builtinRequest).map((key) => [key, builtinRequest[key]]));
  if (found?.quoted) request['user_text'] = 'json-quoted';
  if (startupParts.length > 0) request['startup_context'] = { parts: startupParts, placement: 'first-user-message' };
  const byWireSettings: Record<string, unknown> = {};
  for (const capture of captures) {
    const settings = wireSettings(capture, omitted);
    const message = promptMessage(capture.wire, capture.body, ctx.prompt);
    if (capture.wire === 'chat' && message?.parts) (settings['wire_shape'] as Record<string, unknown>)['user_content'] = 'parts';
    byWireSettings[capture.wire] = settings;
  }
  request['by_wire'] = byWireSettings;
  for (const capture of captures) {
    const standard = new Set(['host', 'connection', 'content-type', 'content-length', 'accept', 'accept-encoding', 'accept-language', 'authorization', 'x-api-key', 'anthropic-version', 'anthropic-beta', 'user-agent', 'sec-fetch-mode']);
    const dropped = capture.headers.map(([name]) => name).filter((name) => !standard.has(name));
    if (dropped.length > 0) omitted.push({ what: `${capture.wire}: headers ${[...new Set(dropped)].join(', ')}`, reason: 'client identity, session ids or SDK details of the original: not sent (reference §8)' });
  }

  const date = ctx.now.toISOString().slice(0, 10);
  const wires = captures.map((capture) => capture.wire);
  const profile: Record<string, unknown> = {
    format: 1,
    id: ctx.id,
    description: `${ctx.agent} ${ctx.version} as captured on this machine (${date}); rig harness diff ${ctx.id} compares it with the built-in`,
    wires,
    ...(builtin['protocol'] ? { protocol: builtin['protocol'] } : {}),
    prompt_file: `${ctx.id}.prompt.md`,
    tools,
    request,
    ...(builtin['aliases'] ? { aliases: builtin['aliases'] } : {}),
    sources: [`rig harness capture: ${ctx.bin} (${ctx.version}), ${date}`],
    notes: omitted.map((item) => `omitted: ${item.what}: ${item.reason}`),
    capture: {
      agent: ctx.agent,
      version: ctx.version,
      bin: ctx.bin,
      captured: ctx.now.toISOString(),
      prompt: ctx.prompt,
      wires: Object.fromEntries(captures.map((capture) => [capture.wire, { endpoint: capture.path, model: capture.body['model'] }])),
      omitted,
    },
  };
  return { profile, prompt, omitted };
}
