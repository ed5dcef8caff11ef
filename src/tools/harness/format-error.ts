// The hidden `format_error` tool of text-protocol harnesses: the driver "calls" it when a reply
// cannot be parsed, and its output (the harness's format-error message) goes back to the model
// as the observation, so the turn continues.
import { FORMAT_ERROR_TOOL } from '../../harness/text-protocol/actions.js';
import type { ToolSpec } from '../spec.js';

export function createFormatErrorTool(): ToolSpec {
  return {
    name: FORMAT_ERROR_TOOL,
    description: 'Reports a reply the harness could not parse (never advertised).',
    kind: 'function',
    parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    parallelSafe: true,
    handle: async (args) => ({ output: String((args as { message?: unknown }).message ?? ''), success: false }),
  };
}
