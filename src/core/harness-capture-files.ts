// Where `rig harness capture` keeps what it recorded: `<dir>/<id>.json` (the profile),
// `<dir>/<id>.prompt.md` (the original's system prompt) and `<dir>/<id>.capture/<wire>.request.json`
// (the first main request as sent, for `rig harness diff` and for checking rig's own request).
// `<dir>` is $RIG_HOME/harnesses (or the config's harnesses_dir). All of it stays on this machine.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, resolveRigHome } from '../config/index.js';
import type { CapturedRequest } from '../harness/capture/profile-writer.js';
import type { WireApi } from '../model/types.js';
import type { CommandIo as HarnessIo } from './command-io.js';

export interface StoredCapture extends CapturedRequest {
  /** The throwaway workspace and home of the run (they appear in the prompt as {{cwd}} / {{home}}). */
  workspace: string;
  home: string;
  prompt: string;
  captured: string;
}

export function harnessDir(io: Pick<HarnessIo, 'env' | 'cwd'>): string {
  const home = resolveRigHome(io.env);
  try {
    const { config } = loadConfig({ home, cwd: io.cwd, env: io.env });
    if (config.harnesses_dir) return config.harnesses_dir;
  } catch {
    // A broken config.toml is reported by the commands that need it; the default place is used here.
  }
  return join(home, 'harnesses');
}

export function captureDir(dir: string, id: string): string {
  return join(dir, `${id}.capture`);
}

/** Writes a file through a temp name and a rename, so a reader never sees half of it. */
export function writeAtomic(file: string, text: string): void {
  const temp = `${file}.tmp-${process.pid}`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

export function storeCaptures(dir: string, id: string, captures: StoredCapture[]): void {
  const target = captureDir(dir, id);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const capture of captures) writeAtomic(join(target, `${capture.wire}.request.json`), `${JSON.stringify(capture, null, 2)}\n`);
}

export function readCaptures(dir: string, id: string): StoredCapture[] {
  const target = captureDir(dir, id);
  if (!existsSync(target)) return [];
  const order: WireApi[] = ['chat', 'responses', 'messages'];
  return readdirSync(target)
    .filter((name) => name.endsWith('.request.json'))
    .map((name) => JSON.parse(readFileSync(join(target, name), 'utf8')) as StoredCapture)
    .sort((a, b) => order.indexOf(a.wire) - order.indexOf(b.wire));
}
