// Reads through the thread's workspace file access: a front end whose client holds the files (an
// editor over ACP) is asked for a workspace file's text, so the model sees what the person sees,
// unsaved edits included. Reads never need approval in rig (every sandbox mode may read), so the
// safety check here is the workspace bound: a file outside the thread's workspace, or one the
// client cannot give, is read from disk by rig as before.
import { isAbsolute, relative } from 'node:path';
import type { TurnServices } from '../spec.js';
import type { OrchestratorOptions } from './options.js';

export function insideWorkspace(cwd: string, absolutePath: string): boolean {
  const rel = relative(cwd, absolutePath);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

export async function readClientText(absolutePath: string, options: OrchestratorOptions, services: TurnServices): Promise<string | undefined> {
  const client = options.clientFiles?.();
  if (!client?.readTextFile || !insideWorkspace(services.cwd, absolutePath)) return undefined;
  try {
    return await client.readTextFile(absolutePath);
  } catch {
    // Not open in the editor and not on disk either, or the client refused: rig's own read says which.
    return undefined;
  }
}
