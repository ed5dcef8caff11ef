import { describe, expect, it } from 'vitest';
import {
  APPLY_PATCH_LARK_GRAMMAR,
  applyPatchCustomTool,
  applyPatchFunctionTool,
  applyPatchGrammar,
} from '../../src/patch/grammar.js';
import { parsePatch } from '../../src/patch/parse.js';

describe('apply_patch tool definitions', () => {
  // Snapshots: the tool surface a model sees must not drift silently.
  it('offers a freeform tool with a Lark grammar', () => {
    expect(applyPatchCustomTool()).toMatchSnapshot();
    expect(applyPatchGrammar({ withEnvironment: true })).toContain('start: begin environment? hunk+ end');
  });

  it('offers a JSON function tool taking {input}', () => {
    const tool = applyPatchFunctionTool();
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: { input: { type: 'string', description: 'The complete patch, from *** Begin Patch to *** End Patch' } },
      required: ['input'],
      additionalProperties: false,
    });
    expect(tool).toMatchSnapshot();
  });

  it('describes the markers the parser accepts', () => {
    for (const marker of ['*** Begin Patch', '*** End Patch', '*** Add File: ', '*** Delete File: ', '*** Update File: ', '*** Move to: ', '*** End of File', '"@@ "']) {
      expect(APPLY_PATCH_LARK_GRAMMAR).toContain(marker);
    }
    expect(APPLY_PATCH_LARK_GRAMMAR).toContain('%import common.LF');
  });

  it('has an example in the function description that parses', () => {
    const description = applyPatchFunctionTool().description;
    const example = description.slice(description.indexOf('Example:\n\n') + 10, description.indexOf('*** End Patch', description.indexOf('Example:')) + 13);
    expect(parsePatch(example).hunks.map((h) => h.type)).toEqual(['add', 'update', 'delete']);
  });
});
