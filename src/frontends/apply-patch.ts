// `rig apply-patch [PATCH]`: apply a patch in the current directory without a model, through the
// same parser and file-change engine the agent uses. All or nothing.
import { readFileSync } from 'node:fs';
import { applyPatch } from '../core/apply-patch.js';

export async function runApplyPatchCommand(patchArgument: string | undefined): Promise<number> {
  let patch = patchArgument;
  if (patch === undefined) {
    if (process.stdin.isTTY) {
      process.stderr.write('rig apply-patch: no patch given: pass it as an argument or pipe it on stdin\n');
      return 2;
    }
    patch = readFileSync(0, 'utf8');
  }
  try {
    const result = await applyPatch(patch, process.cwd());
    process.stdout.write(result.summary.endsWith('\n') ? result.summary : `${result.summary}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
