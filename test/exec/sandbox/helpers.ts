// Temp workspaces for the sandbox tests. Everything lives under one real temp directory that the
// test removes afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Scratch {
  /** Real path of the scratch directory (holds ws/ and outside/). */
  base: string;
  /** The workspace (cwd of the policy). */
  ws: string;
  /** A sibling directory that is never writable. */
  outside: string;
  remove(): void;
}

export function makeScratch(prefix = 'rig-sandbox-'): Scratch {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(ws);
  fs.mkdirSync(outside);
  return {
    base,
    ws,
    outside,
    remove: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** Settings that keep /tmp and $TMPDIR out, so `outside` (also under /tmp) is really outside. */
export const noTmp = { excludeSlashTmp: true, excludeTmpdirEnvVar: true } as const;
