import { describe, expect, expectTypeOf, it } from 'vitest';
import type { FileEdit as PatchFileEdit } from '../../src/patch/types.js';
import type { FileEdit as ToolFileEdit } from '../../src/tools/spec.js';

describe('FileEdit', () => {
  it('is the same type in patch/ and tools/spec.ts', () => {
    // patch/ may not import tools/, so it declares FileEdit itself; this keeps the two in step.
    expectTypeOf<PatchFileEdit>().toEqualTypeOf<ToolFileEdit>();
    const edit: PatchFileEdit = { path: '/a', kind: 'add', content: '' };
    const asTool: ToolFileEdit = edit;
    expect(asTool).toBe(edit);
  });
});
