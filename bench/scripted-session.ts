// The scripted session both agents run in `--vs codex` and the soak: one tool call per model
// response, in a fixed rotation of step kinds, then a final answer. rig's native harness and Codex's
// gpt-5.5 tool set share the call shapes (exec_command {cmd}, freeform apply_patch), so one script
// serves both. Every step is harmless: `true`, reads of files in the temp workspace, patches inside it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MockTurn } from '../test/support/mock-provider/index.js';
import { tempGitRepo } from '../test/support/workspace.js';

export type StepKind = 'shell' | 'cat' | 'apply_patch' | 'add_file';

export const STEP_KINDS: readonly StepKind[] = ['shell', 'cat', 'apply_patch', 'add_file'];

export interface SessionScript {
  steps: number;
  kinds: StepKind[];
  /** Bytes each command prints (the `shell` step prints nothing when 0: it is `true`). */
  outputBytes: number;
}

export interface ScriptOptions {
  steps: number;
  /** The rotation of step kinds (default: shell, cat, apply_patch, add_file). */
  rotation?: readonly StepKind[];
  /** What the command steps print: 0 = `true` and a ~600-byte file; n = n bytes each. */
  outputBytes?: number;
}

export function sessionScript(options: ScriptOptions): SessionScript {
  const rotation = options.rotation ?? STEP_KINDS;
  return {
    steps: options.steps,
    kinds: Array.from({ length: options.steps }, (_, i) => rotation[i % rotation.length]!),
    outputBytes: options.outputBytes ?? 0,
  };
}

const READ_FILE = 'notes/read.txt';
const LOG_FILE = 'notes/log.txt';
const EDIT_FILE = 'edit.txt';

function textOf(bytes: number, seed: string): string {
  const line = `${seed}: the quick brown fox jumps over the lazy dog 0123456789\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes - 1) + '\n';
}

/** A fresh git repository with the files the script reads and edits. */
export function sessionWorkspace(script: SessionScript): string {
  const readBytes = script.outputBytes > 0 ? script.outputBytes : 600;
  return tempGitRepo({
    'README.md': '# bench session\n',
    [READ_FILE]: textOf(readBytes, 'read'),
    [LOG_FILE]: textOf(Math.max(script.outputBytes, 64) * 4, 'log'),
    [EDIT_FILE]: Array.from({ length: script.steps }, (_, i) => `line ${i + 1}\n`).join(''),
  });
}

function command(kind: 'shell' | 'cat', script: SessionScript): string {
  if (kind === 'cat') return `cat ${READ_FILE}`;
  return script.outputBytes > 0 ? `head -c ${script.outputBytes} ${LOG_FILE}` : 'true';
}

/** The commands the script runs, for timing them bare. */
export function commandsOf(script: SessionScript): Record<'shell' | 'cat', string> {
  return { shell: command('shell', script), cat: command('cat', script) };
}

function patchFor(kind: 'apply_patch' | 'add_file', step: number): string {
  if (kind === 'add_file') return ['*** Begin Patch', `*** Add File: added/file-${step}.txt`, `+added in step ${step}`, '*** End Patch'].join('\n');
  return ['*** Begin Patch', `*** Update File: ${EDIT_FILE}`, '@@', `-line ${step}`, `+line ${step} edited`, '*** End Patch'].join('\n');
}

/** The model's responses: one tool call per step (step numbers from 1), then "done". */
export function scriptTurns(script: SessionScript): MockTurn[] {
  const turns: MockTurn[] = script.kinds.map((kind, i) => {
    const step = i + 1;
    // The ids the Responses and Chat renderings would give anyway; Messages would name them toolu_*.
    const id = `call_${step}_0`;
    if (kind === 'shell' || kind === 'cat') return { toolCalls: [{ id, name: 'exec_command', arguments: { cmd: command(kind, script) } }] };
    return { toolCalls: [{ id, name: 'apply_patch', kind: 'custom', input: patchFor(kind, step) }] };
  });
  turns.push({ text: 'done' });
  return turns;
}

/** What went wrong in the workspace after the session, if anything: every patch must have landed. */
export function workspaceProblem(script: SessionScript, workspace: string): string | undefined {
  const edited = readFileSync(join(workspace, EDIT_FILE), 'utf8').split('\n');
  for (const [i, kind] of script.kinds.entries()) {
    const step = i + 1;
    if (kind === 'apply_patch' && edited[i] !== `line ${step} edited`) return `step ${step}: ${EDIT_FILE} line ${step} is ${JSON.stringify(edited[i])}, expected "line ${step} edited"`;
    if (kind === 'add_file' && !existsSync(join(workspace, 'added', `file-${step}.txt`))) return `step ${step}: added/file-${step}.txt was not created`;
  }
  return undefined;
}
