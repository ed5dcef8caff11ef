// One history that uses every item kind, lowered by each wire in the lowering tests.
import type { ModelRequest } from '../../src/model/types.js';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

export const history: ModelRequest = {
  model: 'm-1',
  instructions: 'SYS',
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Follow the rules.' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List files' }, { type: 'input_image', image_url: PNG }] },
    {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'summary' }],
      content: [{ type: 'reasoning_text', text: 'raw thinking' }],
      encrypted_content: 'enc_1',
      signature: 'sig_1',
    },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }], id: 'msg_1' },
    { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":["ls"]}', id: 'fc_1' },
    { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: 'PATCH' },
    { type: 'function_call_output', call_id: 'call_1', output: 'a.txt' },
    { type: 'custom_tool_call_output', call_id: 'call_2', output: 'bad patch', is_error: true },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'thanks' }] },
  ],
  tools: [
    { kind: 'function', name: 'shell', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'array' } } } },
    { kind: 'custom', name: 'apply_patch', description: 'Edit files', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
  ],
  parallelToolCalls: true,
  reasoningEffort: 'medium',
  reasoningSummary: 'auto',
  outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  promptCacheKey: 'thread-1',
  extraBody: { service_tier: 'flex' },
};
