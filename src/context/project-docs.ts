// AGENTS.md discovery (reference/context-and-state.md §1): global instructions from RIG_HOME, then
// one doc per directory from the project root down to cwd, under a shared byte budget.
import fs from 'node:fs';
import path from 'node:path';
import { userText, type MessageItem } from '../protocol/index.js';
import { AGENTS_MD_START, INSTRUCTIONS_CLOSE, INSTRUCTIONS_OPEN } from './contextual.js';

export const DEFAULT_PROJECT_DOC_MAX_BYTES = 32 * 1024;
export const DEFAULT_PROJECT_ROOT_MARKERS: readonly string[] = ['.git'];
export const OVERRIDE_FILENAME = 'AGENTS.override.md';
export const DEFAULT_FILENAME = 'AGENTS.md';
export const PROJECT_DOC_SEPARATOR = '\n\n--- project-doc ---\n\n';

export interface DiscoverProjectDocsOptions {
  cwd: string;
  /** RIG_HOME: its AGENTS.override.md / AGENTS.md are global instructions. Omit to skip. */
  home?: string;
  /** project_root_markers; `[]` disables the upward walk (only cwd is searched). */
  markers?: readonly string[];
  /** project_doc_fallback_filenames, tried after AGENTS.override.md and AGENTS.md. */
  fallbackFilenames?: readonly string[];
  /** project_doc_max_bytes shared by all project docs; 0 disables them. */
  maxBytes?: number;
  /** Other user instructions (config) placed after the global file, before project docs. */
  userInstructions?: string;
}

export interface ProjectDocSource {
  path: string;
  kind: 'global' | 'project';
  /** Bytes of the file on disk. */
  bytes: number;
  /** Bytes actually included. */
  includedBytes: number;
  truncated: boolean;
  /** Not valid UTF-8: decoded with replacement characters. */
  lossy: boolean;
}

export interface ProjectDocs {
  /** The combined instructions text; empty when there is nothing. */
  text: string;
  sources: ProjectDocSource[];
  projectRoot: string;
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true });
const utf8Lossy = new TextDecoder('utf-8', { fatal: false });

function isRegularFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile(); // follows symlinks, which are allowed
  } catch {
    return false;
  }
}

function exists(file: string): boolean {
  try {
    fs.statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Nearest ancestor of cwd (inclusive) holding a marker; cwd itself when none does. */
export function findProjectRoot(cwd: string, markers: readonly string[] = DEFAULT_PROJECT_ROOT_MARKERS): string {
  const start = path.resolve(cwd);
  if (markers.length === 0) return start;
  let dir = start;
  for (;;) {
    if (markers.some((m) => m !== '' && exists(path.join(dir, m)))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

/** Don't cut inside a multi-byte UTF-8 sequence. */
function utf8Boundary(buffer: Buffer, end: number): number {
  let cut = Math.min(end, buffer.length);
  if (cut === buffer.length) return cut;
  while (cut > 0 && (buffer[cut]! & 0xc0) === 0x80) cut--;
  return cut;
}

interface ReadDoc {
  text: string;
  bytes: number;
  includedBytes: number;
  truncated: boolean;
  lossy: boolean;
}

function readDoc(file: string, budget: number): ReadDoc | undefined {
  let data: Buffer;
  let size: number;
  try {
    // Read only what the budget allows (plus one byte to find a character boundary).
    const fd = fs.openSync(file, 'r');
    try {
      size = fs.fstatSync(fd).size;
      const want = Math.min(size, budget + 1);
      data = Buffer.alloc(want);
      let got = 0;
      while (got < want) {
        const n = fs.readSync(fd, data, got, want - got, got);
        if (n === 0) break;
        got += n;
      }
      data = data.subarray(0, got);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined; // unreadable docs are skipped rather than failing the thread
  }
  const cut = data.length > budget ? utf8Boundary(data, budget) : data.length;
  let body = data.subarray(0, cut);
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) body = body.subarray(3);
  let lossy = false;
  let text: string;
  try {
    text = utf8Strict.decode(body);
  } catch {
    lossy = true;
    text = utf8Lossy.decode(body);
  }
  return { text, bytes: size, includedBytes: cut, truncated: cut < size, lossy };
}

function notesFor(file: string, doc: ReadDoc, maxBytes: number): string {
  const notes: string[] = [];
  if (doc.lossy) notes.push(`[rig: ${file} is not valid UTF-8; undecodable bytes are shown as \uFFFD]`);
  if (doc.truncated) {
    notes.push(
      `[rig: ${file} truncated: included ${doc.includedBytes} of ${doc.bytes} bytes (project_doc_max_bytes = ${maxBytes})]`,
    );
  }
  return notes.length ? `\n\n${notes.join('\n')}` : '';
}

/** First non-blank of RIG_HOME/AGENTS.override.md, RIG_HOME/AGENTS.md (trimmed). */
export function readGlobalInstructions(home: string): { text: string; source: ProjectDocSource } | undefined {
  for (const name of [OVERRIDE_FILENAME, DEFAULT_FILENAME]) {
    const file = path.join(home, name);
    if (!isRegularFile(file)) continue;
    const doc = readDoc(file, Number.MAX_SAFE_INTEGER);
    if (!doc || doc.text.trim() === '') continue;
    return {
      text: doc.text.trim() + notesFor(file, doc, 0),
      source: { path: file, kind: 'global', bytes: doc.bytes, includedBytes: doc.includedBytes, truncated: false, lossy: doc.lossy },
    };
  }
  return undefined;
}

function candidateNames(fallbacks: readonly string[]): string[] {
  const names = [OVERRIDE_FILENAME, DEFAULT_FILENAME];
  for (const name of fallbacks) if (name.trim() !== '' && !names.includes(name)) names.push(name);
  return names;
}

/** Directories from the project root down to cwd, root first. */
function searchDirs(root: string, cwd: string): string[] {
  const dirs: string[] = [];
  let dir = cwd;
  for (;;) {
    dirs.unshift(dir);
    if (dir === root) break;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dirs;
}

export function discoverProjectDocs(options: DiscoverProjectDocsOptions): ProjectDocs {
  const cwd = path.resolve(options.cwd);
  const maxBytes = options.maxBytes ?? DEFAULT_PROJECT_DOC_MAX_BYTES;
  const projectRoot = findProjectRoot(cwd, options.markers ?? DEFAULT_PROJECT_ROOT_MARKERS);
  const sources: ProjectDocSource[] = [];
  const userParts: string[] = [];
  if (options.home) {
    const global = readGlobalInstructions(options.home);
    if (global) {
      userParts.push(global.text);
      sources.push(global.source);
    }
  }
  if (options.userInstructions?.trim()) userParts.push(options.userInstructions.trim());

  const docs: string[] = [];
  let remaining = maxBytes;
  if (maxBytes > 0) {
    const names = candidateNames(options.fallbackFilenames ?? []);
    for (const dir of searchDirs(projectRoot, cwd)) {
      const file = names.map((n) => path.join(dir, n)).find(isRegularFile);
      if (!file) continue;
      if (remaining <= 0) {
        docs.push(`[rig: ${file} omitted: project_doc_max_bytes (${maxBytes}) already used by earlier files]`);
        sources.push({ path: file, kind: 'project', bytes: safeSize(file), includedBytes: 0, truncated: true, lossy: false });
        continue;
      }
      const doc = readDoc(file, remaining);
      if (!doc || doc.text.trim() === '') continue;
      remaining -= doc.includedBytes;
      docs.push(doc.text + notesFor(file, doc, maxBytes));
      sources.push({ path: file, kind: 'project', bytes: doc.bytes, includedBytes: doc.includedBytes, truncated: doc.truncated, lossy: doc.lossy });
    }
  }

  const userText_ = userParts.join('\n\n');
  const docsText = docs.join('\n\n');
  const text = userText_ && docsText ? userText_ + PROJECT_DOC_SEPARATOR + docsText : userText_ || docsText;
  return { text, sources, projectRoot };
}

function safeSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** The `# AGENTS.md instructions for <cwd>` block the model sees. */
export function buildUserInstructionsText(cwd: string, text: string): string {
  return `${AGENTS_MD_START} for ${cwd}\n\n${INSTRUCTIONS_OPEN}\n${text}\n${INSTRUCTIONS_CLOSE}`;
}

/** A user-role message carrying the instructions, or undefined when there are none. */
export function buildUserInstructionsMessage(cwd: string, text: string): MessageItem | undefined {
  if (text.trim() === '') return undefined;
  return userText(buildUserInstructionsText(cwd, text));
}
