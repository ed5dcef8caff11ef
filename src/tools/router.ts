// Turns one model tool call into a handler invocation. Whatever the model sends, the result is a
// ToolResult: unknown tools, malformed JSON and schema violations become error results the model
// can read and correct; a throwing handler becomes an error result too.
import type { CustomToolCallItem, FunctionCallItem } from '../protocol/index.js';
import type { ToolRegistry } from './registry.js';
import type { ToolContext, ToolResult } from './spec.js';
import { validateArgs } from './validate-args.js';

export type ToolCall = FunctionCallItem | CustomToolCallItem;

export function failure(message: string): ToolResult {
  return { output: message, success: false };
}

export async function routeToolCall(
  registry: ToolRegistry,
  call: ToolCall,
  ctx: ToolContext,
): Promise<ToolResult> {
  const spec = registry.get(call.name);
  if (!spec) {
    return failure(`unsupported call: ${call.name} (available tools: ${registry.names().join(', ')})`);
  }
  let args: unknown;
  if (call.type === 'custom_tool_call') {
    // A function-only wire wraps freeform tools as {"input": string}; accept both forms.
    args = spec.kind === 'custom' ? call.input : parseJson(call.input);
  } else if (spec.kind === 'custom') {
    const parsed = parseJson(call.arguments);
    if (parsed instanceof SyntaxError) return failure(`failed to parse function arguments: ${parsed.message}`);
    const input = (parsed as { input?: unknown } | null)?.input;
    if (typeof input !== 'string') {
      return failure(`invalid arguments for ${call.name}: field "input" is required and must be a string`);
    }
    args = input;
  } else {
    args = call.arguments.trim() === '' ? {} : parseJson(call.arguments);
  }
  if (args instanceof SyntaxError) return failure(`failed to parse function arguments: ${args.message}`);
  if (spec.kind === 'function' && spec.parameters) {
    const problem = validateArgs(spec.parameters, args);
    if (problem) return failure(`invalid arguments for ${call.name}: ${problem}`);
  }
  try {
    return await spec.handle(args, ctx);
  } catch (error) {
    if (ctx.signal.aborted) return failure('aborted by user');
    const message = error instanceof Error ? error.message : String(error);
    return failure(`${call.name} failed: ${message}`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return error instanceof SyntaxError ? error : new SyntaxError(String(error));
  }
}
