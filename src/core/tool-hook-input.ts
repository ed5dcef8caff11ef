// A tool call as hooks see it, and a hook's rewrite of it. Codex's own tools keep Codex's shapes
// (a shell call is `{command: "<script>"}`, apply_patch `{command: "<patch>"}`); every other tool
// shows the model's arguments as they are. `updatedInput` replaces the fields it names (a complete
// input replaces them all), and for Codex's tools the new `command`.
import type { ToolCall } from '../tools/router.js';

function parsedArguments(call: ToolCall): unknown {
  const text = call.type === 'custom_tool_call' ? call.input : call.arguments;
  if (call.type === 'custom_tool_call') return text;
  try {
    return text.trim() === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The freeform input of a custom tool, whether it came as a custom call or wrapped as {input}. */
function freeformInput(call: ToolCall): string {
  if (call.type === 'custom_tool_call') return call.input;
  const input = record(parsedArguments(call))['input'];
  return typeof input === 'string' ? input : '';
}

export function hookToolInput(call: ToolCall, capability: string | undefined): unknown {
  const args = parsedArguments(call);
  switch (capability) {
    case 'native.exec_command':
      return { command: record(args)['cmd'] ?? '' };
    case 'native.shell_command':
      return { command: record(args)['command'] ?? '' };
    case 'native.shell': {
      const argv = record(args)['command'];
      return { command: Array.isArray(argv) ? argv.map(String).join(' ') : '' };
    }
    case 'native.apply_patch':
      return { command: freeformInput(call) };
    default:
      return call.type === 'custom_tool_call' ? { input: args } : args;
  }
}

/** The call with a hook's `updatedInput` applied; the call unchanged when the rewrite does not fit. */
export function applyUpdatedInput(call: ToolCall, capability: string | undefined, updated: unknown): ToolCall {
  const fields = record(updated);
  const command = typeof fields['command'] === 'string' ? (fields['command'] as string) : undefined;
  const withArgs = (args: Record<string, unknown>): ToolCall =>
    call.type === 'custom_tool_call' ? call : { ...call, arguments: JSON.stringify(args) };
  switch (capability) {
    case 'native.exec_command':
      return command === undefined ? call : withArgs({ ...record(parsedArguments(call)), cmd: command });
    case 'native.shell_command':
      return command === undefined ? call : withArgs({ ...record(parsedArguments(call)), command });
    case 'native.shell':
      return command === undefined ? call : withArgs({ ...record(parsedArguments(call)), command: ['bash', '-lc', command] });
    case 'native.apply_patch':
      if (command === undefined) return call;
      return call.type === 'custom_tool_call' ? { ...call, input: command } : { ...call, arguments: JSON.stringify({ input: command }) };
    default: {
      if (call.type === 'custom_tool_call') return typeof fields['input'] === 'string' ? { ...call, input: fields['input'] as string } : call;
      return Object.keys(fields).length === 0 ? call : withArgs({ ...record(parsedArguments(call)), ...fields });
    }
  }
}
