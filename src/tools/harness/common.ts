// Shared pieces of the emulated harnesses' file tools: argument reading with the profile's names,
// path resolution, the per-thread record of what the model has read, text helpers.
import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve } from 'node:path';
import { readFileSync, statSync } from 'node:fs';
import type { ResolvedTool } from '../../harness/profile.js';
import { CapabilityOptionError } from '../../harness/profile.js';
import type { JsonSchema, ToolOutput } from '../../protocol/index.js';
import type { ToolContext, ToolResult, ToolSpec } from '../spec.js';

export type Args = Record<string, unknown>;

export function ok(output: ToolOutput): ToolResult {
  return { output, success: true };
}

export function fail(output: ToolOutput): ToolResult {
  return { output, success: false };
}

export function asArgs(value: unknown): Args {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Args) : {};
}

/** The first of `names` present in args as a string. */
export function stringArg(args: Args, ...names: (string | undefined)[]): string | undefined {
  for (const name of names) {
    if (name === undefined) continue;
    const value = args[name];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

export function numberArg(args: Args, ...names: (string | undefined)[]): number | undefined {
  for (const name of names) {
    if (name === undefined) continue;
    const value = args[name];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return undefined;
}

export function boolArg(args: Args, ...names: (string | undefined)[]): boolean | undefined {
  for (const name of names) {
    if (name === undefined) continue;
    const value = args[name];
    if (typeof value === 'boolean') return value;
  }
  return undefined;
}

/** A style option: one of the handler's presets, else a load error naming the field. */
export function styleOption<S extends string>(tool: ResolvedTool, styles: readonly S[], fallback: S): S {
  const value = tool.options['style'] ?? fallback;
  if (typeof value !== 'string' || !styles.includes(value as S)) {
    throw new CapabilityOptionError('options.style', `must be one of ${styles.map((s) => `"${s}"`).join(', ')}`);
  }
  return value as S;
}

export function numberOption(tool: ResolvedTool, name: string, fallback: number): number {
  const value = tool.options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0)) {
    throw new CapabilityOptionError(`options.${name}`, 'must be a positive number');
  }
  return value;
}

export function stringOption(tool: ResolvedTool, name: string): string | undefined {
  const value = tool.options[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new CapabilityOptionError(`options.${name}`, 'must be a string');
  return value;
}

export function resolvePath(ctx: ToolContext, path: string): string {
  if (path === '~' || path.startsWith('~/')) return resolve(process.env['HOME'] ?? '/', path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(ctx.cwd, path);
}

/** cwd-relative when inside the cwd, else absolute. */
export function displayPath(ctx: ToolContext, absolute: string): string {
  const rel = relative(ctx.cwd, absolute);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// --- what the model has read in this thread (read-before-edit) -------------------------------

const FILE_STATE_KEY = 'harness.fileState';

/** Content hash per absolute path, as last read or written by the model in this thread. */
function fileState(ctx: ToolContext): Map<string, string> {
  let state = ctx.threadState.get(FILE_STATE_KEY) as Map<string, string> | undefined;
  if (!state) {
    state = new Map();
    ctx.threadState.set(FILE_STATE_KEY, state);
  }
  return state;
}

export function recordFileState(ctx: ToolContext, path: string, content: string): void {
  fileState(ctx).set(path, sha256(content));
}

export const UNREAD_FILE_ERROR = 'File has not been read yet. Read it first before writing to it.';
export const STALE_FILE_ERROR =
  'File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.';

/** Null when the model may change this existing file, else the error to return. */
export function checkReadBeforeEdit(ctx: ToolContext, path: string, currentContent: string): string | null {
  const seen = fileState(ctx).get(path);
  if (seen === undefined) return UNREAD_FILE_ERROR;
  if (seen !== sha256(currentContent)) return STALE_FILE_ERROR;
  return null;
}

// --- file reading ------------------------------------------------------------------------------

export type FileRead =
  | { kind: 'text'; content: string }
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'binary'; bytes: Buffer }
  | { kind: 'error'; message: string };

/** Reads a file as UTF-8 text, telling apart missing files, directories and binary content. */
export function readTextFile(path: string): FileRead {
  let bytes: Buffer;
  try {
    if (statSync(path).isDirectory()) return { kind: 'directory' };
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'error', message: (error as Error).message };
  }
  if (bytes.subarray(0, 8192).includes(0)) return { kind: 'binary', bytes };
  const content = bytes.toString('utf8');
  if (content.includes('\uFFFD') && !Buffer.from(content, 'utf8').equals(bytes)) return { kind: 'binary', bytes };
  return { kind: 'text', content };
}

/**
 * A file as the model's file tools see it: through the thread's workspace file access (the
 * client's buffer, when a front end's editor holds the files), else from disk.
 */
export async function readWorkspaceFile(ctx: ToolContext, path: string): Promise<FileRead> {
  const text = await ctx.caps.readClientText?.(path);
  return text !== undefined ? { kind: 'text', content: text } : readTextFile(path);
}

/** Lines of a text, without the empty piece after a final newline. */
export function splitLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

export function truncateMiddle(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const half = Math.floor(maxBytes / 2);
  const buffer = Buffer.from(text);
  const head = buffer.subarray(0, half).toString('utf8').replace(/\uFFFD$/, '');
  const tail = buffer.subarray(buffer.length - half).toString('utf8').replace(/^\uFFFD/, '');
  return `${head}\n[... ${buffer.length - 2 * half} bytes omitted ...]\n${tail}`;
}

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

export function imageMimeType(path: string): string | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext ? IMAGE_TYPES[ext] : undefined;
}

// --- building specs ------------------------------------------------------------------------------

export interface SpecDefaults {
  description: string;
  parameters: JsonSchema;
  parallelSafe: boolean;
  /** ToolSpec.runsCommands. */
  runsCommands?: boolean;
}

/** A function ToolSpec with the profile's name, description and schema over the handler's defaults. */
export function functionSpec(
  tool: ResolvedTool,
  defaults: SpecDefaults,
  handle: (args: Args, ctx: ToolContext) => Promise<ToolResult>,
): ToolSpec {
  return {
    name: tool.name,
    description: tool.description ?? defaults.description,
    kind: 'function',
    parameters: tool.parameters ?? defaults.parameters,
    parallelSafe: defaults.parallelSafe,
    ...(defaults.runsCommands ? { runsCommands: true } : {}),
    handle: async (args, ctx) => {
      try {
        return await handle(asArgs(args), ctx);
      } catch (error) {
        return fail(`${tool.name} failed: ${(error as Error).message}`);
      }
    },
  };
}
