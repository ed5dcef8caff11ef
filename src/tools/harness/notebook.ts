// Jupyter notebooks for Claude Code's tools: Read shows a notebook as its cells (with the ids
// NotebookEdit addresses them by), and NotebookEdit replaces, inserts or deletes one cell. The edit
// goes through the one file-change engine like Write and Edit, so approvals, the sandbox's write
// roots, checkpoints and the file_change item all apply.
import { randomBytes } from 'node:crypto';
import type { ResolvedTool } from '../../harness/profile.js';
import type { ContentPart, ToolOutput } from '../../protocol/index.js';
import type { ToolContext, ToolResult, ToolSpec } from '../spec.js';
import { type Args, checkReadBeforeEdit, fail, functionSpec, ok, readTextFile, recordFileState, resolvePath, stringArg } from './common.js';

type CellType = 'code' | 'markdown' | 'raw';

interface Cell {
  cell_type: CellType;
  id?: string;
  metadata?: Record<string, unknown>;
  source: string | string[];
  outputs?: Output[];
  execution_count?: number | null;
  [key: string]: unknown;
}

interface Output {
  output_type: 'stream' | 'execute_result' | 'display_data' | 'error';
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
}

interface Notebook {
  cells: Cell[];
  metadata?: { language_info?: { name?: string } };
  nbformat?: number;
  nbformat_minor?: number;
  [key: string]: unknown;
}

export function isNotebookPath(path: string): boolean {
  return path.toLowerCase().endsWith('.ipynb');
}

type Parsed = { ok: true; notebook: Notebook; indent: string; trailingNewline: boolean } | { ok: false; message: string };

function parseNotebook(content: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (error) {
    return { ok: false, message: `Notebook is not valid JSON (${(error as Error).message}).` };
  }
  const notebook = value as Notebook;
  if (value === null || typeof value !== 'object' || !Array.isArray(notebook.cells)) {
    return { ok: false, message: 'Notebook has no "cells" array; is it a Jupyter notebook (nbformat 4)?' };
  }
  // Keep the file's own layout (nbformat writes one-space indents) so a one-cell edit is a small diff.
  const indent = /^\{\r?\n([ \t]+)"/.exec(content)?.[1] ?? ' ';
  return { ok: true, notebook, indent, trailingNewline: content.endsWith('\n') };
}

function sourceText(source: string | string[] | undefined): string {
  return Array.isArray(source) ? source.join('') : (source ?? '');
}

/** nbformat's on-disk form: the source as lines, each keeping its newline. */
function sourceLines(text: string): string[] {
  return text === '' ? [] : (text.match(/[^\n]*\n|[^\n]+$/g) ?? []);
}

/** A cell's address: its own id (nbformat 4.5+), else its position as `cell-N`. */
function cellId(cell: Cell, index: number): string {
  return typeof cell.id === 'string' && cell.id !== '' ? cell.id : `cell-${index}`;
}

function findCell(notebook: Notebook, id: string): number {
  const byId = notebook.cells.findIndex((cell) => cell.id === id);
  if (byId >= 0) return byId;
  const positional = /^cell-(\d+)$/.exec(id);
  if (positional) {
    const index = Number(positional[1]);
    if (index < notebook.cells.length) return index;
  }
  return -1;
}

function outputParts(output: Output): ContentPart[] {
  switch (output.output_type) {
    case 'stream':
      return [{ type: 'input_text', text: sourceText(output.text) }];
    case 'error':
      return [{ type: 'input_text', text: `${output.ename ?? 'Error'}: ${output.evalue ?? ''}` }];
    default: {
      const data = output.data ?? {};
      for (const mime of ['image/png', 'image/jpeg']) {
        const image = data[mime];
        if (typeof image === 'string') return [{ type: 'input_image', image_url: `data:${mime};base64,${image.replace(/\s+/g, '')}` }];
      }
      const text = data['text/plain'];
      return text === undefined ? [] : [{ type: 'input_text', text: sourceText(text as string | string[]) }];
    }
  }
}

/** Read of a notebook: each cell tagged with its id and type, code cells followed by their outputs. */
export function renderNotebook(content: string): ToolResult {
  const parsed = parseNotebook(content);
  if (!parsed.ok) return fail(parsed.message);
  const language = parsed.notebook.metadata?.language_info?.name ?? 'python';
  const parts: ContentPart[] = [];
  parsed.notebook.cells.forEach((cell, index) => {
    const id = cellId(cell, index);
    const typeTag = cell.cell_type === 'code' ? '' : `<cell_type>${cell.cell_type}</cell_type>`;
    const languageTag = cell.cell_type === 'code' && language !== 'python' ? `<language>${language}</language>` : '';
    parts.push({ type: 'input_text', text: `<cell id="${id}">${typeTag}${languageTag}${sourceText(cell.source)}</cell id="${id}">` });
    for (const output of cell.outputs ?? []) parts.push(...outputParts(output));
  });
  if (parts.length === 0) return ok('<system-reminder>Warning: the notebook exists but has no cells.</system-reminder>');
  const output: ToolOutput = parts.every((part) => part.type === 'input_text')
    ? parts.map((part) => (part as { text: string }).text).join('\n')
    : parts;
  return ok(output);
}

function newCellId(notebook: Notebook): string | undefined {
  // Cell ids exist from nbformat 4.5 on; older notebooks address cells by position only.
  const major = notebook.nbformat ?? 4;
  const minor = notebook.nbformat_minor ?? 0;
  return major > 4 || (major === 4 && minor >= 5) ? randomBytes(4).toString('hex') : undefined;
}

function makeCell(type: CellType, source: string, id: string | undefined): Cell {
  const cell: Cell = { cell_type: type, ...(id ? { id } : {}), metadata: {}, source: sourceLines(source) };
  if (type === 'code') {
    cell.execution_count = null;
    cell.outputs = [];
  }
  return cell;
}

/** The cell after a replace: new source, outputs cleared (they belonged to the old code). */
function replaced(cell: Cell, source: string, type: CellType | undefined): Cell {
  const next: Cell = { ...cell, source: sourceLines(source) };
  const finalType = type ?? cell.cell_type;
  next.cell_type = finalType;
  if (finalType === 'code') {
    next.execution_count = null;
    next.outputs = [];
  } else {
    delete next.execution_count;
    delete next.outputs;
  }
  return next;
}

const EDIT_MODES = ['replace', 'insert', 'delete'] as const;
type EditMode = (typeof EDIT_MODES)[number];

async function editNotebook(readFirst: boolean, args: Args, ctx: ToolContext): Promise<ToolResult> {
  const pathArg = stringArg(args, 'notebook_path');
  const newSource = stringArg(args, 'new_source');
  const requestedId = stringArg(args, 'cell_id');
  const typeArg = stringArg(args, 'cell_type');
  const modeArg = stringArg(args, 'edit_mode') ?? 'replace';
  if (!pathArg) return fail('NotebookEdit failed: missing notebook_path');
  if (!EDIT_MODES.includes(modeArg as EditMode)) return fail('Edit mode must be replace, insert, or delete.');
  if (typeArg !== undefined && typeArg !== 'code' && typeArg !== 'markdown') return fail('Cell type must be code or markdown.');
  let mode = modeArg as EditMode;
  let type = typeArg as CellType | undefined;
  if (newSource === undefined && mode !== 'delete') return fail('NotebookEdit failed: missing new_source');
  const absolute = resolvePath(ctx, pathArg);
  if (!isNotebookPath(absolute)) return fail('File must be a Jupyter notebook (.ipynb file). For editing other file types, use the Edit tool.');
  const file = readTextFile(absolute);
  if (file.kind === 'missing') return fail('Notebook file does not exist.');
  if (file.kind !== 'text') return fail(`NotebookEdit failed: ${file.kind === 'error' ? file.message : `${absolute} is not a notebook file`}`);
  if (readFirst) {
    const problem = checkReadBeforeEdit(ctx, absolute, file.content);
    if (problem) return fail(problem);
  }
  const parsed = parseNotebook(file.content);
  if (!parsed.ok) return fail(parsed.message);
  const { notebook } = parsed;

  let index: number;
  if (requestedId === undefined) {
    if (mode !== 'insert') return fail('Cell ID must be specified when not inserting a new cell.');
    index = -1; // insert at the top
  } else {
    index = findCell(notebook, requestedId);
    if (index < 0) {
      // Replacing the cell one past the end appends, as inserting there would.
      const positional = /^cell-(\d+)$/.exec(requestedId);
      if (mode === 'replace' && positional && Number(positional[1]) === notebook.cells.length) {
        mode = 'insert';
        index = notebook.cells.length - 1;
        type ??= 'code';
      } else {
        return fail(`Cell with ID "${requestedId}" not found in notebook.`);
      }
    }
  }
  if (mode === 'insert' && type === undefined) return fail('Cell type is required when using edit_mode=insert.');

  let message: string;
  const cells = [...notebook.cells];
  if (mode === 'delete') {
    cells.splice(index, 1);
    message = `Deleted cell ${requestedId}`;
  } else if (mode === 'insert') {
    const id = newCellId(notebook);
    cells.splice(index + 1, 0, makeCell(type!, newSource!, id));
    message = `Inserted cell ${id ?? `cell-${index + 1}`} with ${newSource}`;
  } else {
    cells[index] = replaced(cells[index]!, newSource!, type);
    message = `Updated cell ${requestedId} with ${newSource}`;
  }
  const content = JSON.stringify({ ...notebook, cells }, null, parsed.indent) + (parsed.trailingNewline ? '\n' : '');
  const outcome = await ctx.caps.applyChanges([{ path: absolute, kind: 'update', content, expectedContent: file.content }]);
  if (!outcome.ok) return fail(`NotebookEdit failed: ${outcome.message}`);
  recordFileState(ctx, absolute, content);
  return ok(message);
}

/** fs.notebook_edit: Claude Code's NotebookEdit. */
export function createNotebookEditTool(tool: ResolvedTool): ToolSpec {
  const readFirst = tool.options['read_before_edit'] === true;
  return functionSpec(
    tool,
    {
      description: 'Replace, insert or delete a cell of a Jupyter notebook.',
      parameters: {
        type: 'object',
        properties: {
          notebook_path: { type: 'string' },
          cell_id: { type: 'string' },
          new_source: { type: 'string' },
          cell_type: { type: 'string', enum: ['code', 'markdown'] },
          edit_mode: { type: 'string', enum: ['replace', 'insert', 'delete'] },
        },
        required: ['notebook_path', 'new_source'],
      },
      parallelSafe: false,
    },
    (args, ctx) => editNotebook(readFirst, args, ctx),
  );
}
