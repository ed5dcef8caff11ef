// fs.read, opencode style: opencode's `read` tool as it words and bounds its results. Facts from
// anomalyco/opencode packages/opencode/src/tool/read.ts @ 00937b9 (the Effect rewrite of the 1.x
// line the captured 1.18.33 belongs to): a 1-based offset, `N: text` lines inside <content>, a
// 2,000-line default, lines cut at 2,000 characters, output capped at 50 KB, the
// `(Showing lines X-Y of N. Use offset=Y+1 to continue.)` footer, and directories listed as entries.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { ToolContext, ToolResult } from '../spec.js';
import { type Args, fail, imageMimeType, numberArg, ok, recordFileState, resolvePath, stringArg } from './common.js';

const DEFAULT_LIMIT = 2000;
const MAX_LINE_LENGTH = 2000;
const LINE_CUT = `... (line truncated to ${MAX_LINE_LENGTH} chars)`;
const MAX_BYTES = 50 * 1024;

/** Extensions opencode refuses as binary without looking inside. */
const BINARY_EXTENSIONS = new Set(
  '.zip .tar .gz .exe .dll .so .class .jar .war .7z .doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp .bin .dat .obj .o .a .lib .wasm .pyc .pyo'.split(' '),
);

/** opencode's test: a NUL byte, or over 30% control characters, in the first 4 KiB. */
function looksBinary(path: string, bytes: Buffer): boolean {
  if (BINARY_EXTENSIONS.has(extname(path).toLowerCase())) return true;
  const sample = bytes.subarray(0, 4096);
  if (sample.length === 0) return false;
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) control++;
  }
  return control / sample.length > 0.3;
}

/** Up to three names in the same directory that contain, or are contained in, the missing name. */
function suggestions(path: string): string[] {
  const dir = dirname(path);
  const wanted = basename(path).toLowerCase();
  try {
    return readdirSync(dir)
      .filter((name) => name.toLowerCase().includes(wanted) || wanted.includes(name.toLowerCase()))
      .map((name) => join(dir, name))
      .slice(0, 3);
  } catch {
    return [];
  }
}

function notFound(path: string): string {
  const near = suggestions(path);
  return near.length > 0 ? `File not found: ${path}\n\nDid you mean one of these?\n${near.join('\n')}` : `File not found: ${path}`;
}

function listDirectory(path: string, offset: number, limit: number): string {
  const entries = readdirSync(path, { withFileTypes: true })
    .map((entry) => {
      if (entry.isDirectory()) return `${entry.name}/`;
      if (entry.isSymbolicLink()) {
        try {
          if (statSync(join(path, entry.name)).isDirectory()) return `${entry.name}/`;
        } catch {
          // a dangling link is listed as a plain name
        }
      }
      return entry.name;
    })
    .sort((a, b) => a.localeCompare(b));
  const shown = entries.slice(offset - 1, offset - 1 + limit);
  const more = offset - 1 + shown.length < entries.length;
  const footer = more
    ? `\n(Showing ${shown.length} of ${entries.length} entries. Use 'offset' parameter to read beyond entry ${offset + shown.length})`
    : `\n(${entries.length} entries)`;
  return [`<path>${path}</path>`, '<type>directory</type>', '<entries>', shown.join('\n'), footer, '</entries>'].join('\n');
}

/** Lines as Node's readline yields them: CR LF, LF and a lone CR end a line. */
function readlineLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (/(\r\n|\n|\r)$/.test(text)) lines.pop();
  return lines;
}

interface Slice {
  lines: string[];
  /** Lines in the file, counted until the byte cap stopped the reading. */
  count: number;
  /** Stopped by the 50 KB cap. */
  cut: boolean;
  /** Lines remain after the slice. */
  more: boolean;
}

function slice(all: string[], offset: number, limit: number): Slice {
  const lines: string[] = [];
  let bytes = 0;
  let count = 0;
  let more = false;
  for (const text of all) {
    count++;
    if (count < offset) continue;
    if (lines.length >= limit) {
      more = true;
      continue;
    }
    const line = text.length > MAX_LINE_LENGTH ? text.slice(0, MAX_LINE_LENGTH) + LINE_CUT : text;
    const size = Buffer.byteLength(line) + (lines.length > 0 ? 1 : 0);
    if (bytes + size > MAX_BYTES) return { lines, count, cut: true, more: true };
    lines.push(line);
    bytes += size;
  }
  return { lines, count, cut: false, more };
}

export async function readOpencode(args: Args, ctx: ToolContext): Promise<ToolResult> {
  const pathArg = stringArg(args, 'filePath');
  if (pathArg === undefined || pathArg === '') return fail('Read failed: missing filePath');
  const offsetArg = numberArg(args, 'offset');
  if (offsetArg !== undefined && offsetArg < 1) return fail('offset must be greater than or equal to 1');
  const offset = offsetArg === undefined ? 1 : Math.trunc(offsetArg);
  const limitArg = numberArg(args, 'limit');
  const limit = limitArg === undefined ? DEFAULT_LIMIT : Math.max(Math.trunc(limitArg), 0);
  const path = resolvePath(ctx, pathArg);

  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return fail(notFound(path));
    return fail(`Read failed: ${(error as Error).message}`);
  }
  if (isDirectory) return ok(listDirectory(path, offset, limit));

  const bytes = readFileSync(path);
  const mime = imageMimeType(path);
  if (mime) {
    return ok([
      { type: 'input_text', text: 'Image read successfully' },
      { type: 'input_image', image_url: `data:${mime};base64,${bytes.toString('base64')}` },
    ]);
  }
  if (looksBinary(path, bytes)) return fail(`Cannot read binary file: ${path}`);

  const content = bytes.toString('utf8');
  const file = slice(readlineLines(content), offset, limit);
  if (file.count < offset && !(file.count === 0 && offset === 1)) {
    return fail(`Offset ${offset} is out of range for this file (${file.count} lines)`);
  }
  recordFileState(ctx, path, content);
  const last = offset + file.lines.length - 1;
  let footer: string;
  if (file.cut) footer = `(Output capped at 50 KB. Showing lines ${offset}-${last}. Use offset=${last + 1} to continue.)`;
  else if (file.more) footer = `(Showing lines ${offset}-${last} of ${file.count}. Use offset=${last + 1} to continue.)`;
  else footer = `(End of file - total ${file.count} lines)`;
  const body = file.lines.map((line, index) => `${offset + index}: ${line}`).join('\n');
  return ok(`<path>${path}</path>\n<type>file</type>\n<content>\n${body}\n\n${footer}\n</content>`);
}
