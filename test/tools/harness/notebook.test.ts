// Claude Code's NotebookEdit through the real CLI: loaded through ToolSearch, Read shows the cells
// with their ids, replace / insert / delete edit one cell each through the file-change engine, the
// file keeps its layout, and mistakes come back to the model as errors naming the problem.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockTurn } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});

afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

beforeEach(() => {
  expect(mock.remaining()).toBe(0);
});

/** nbformat 4.5 as Jupyter writes it: one-space indents, sources as lines, a final newline. */
function notebook(): string {
  const cells = [
    { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Sums\n', 'Adds numbers.'] },
    { cell_type: 'code', execution_count: 3, id: 'a1', metadata: {}, outputs: [{ name: 'stdout', output_type: 'stream', text: ['3\n'] }], source: ['print(1 + 2)'] },
    { cell_type: 'code', execution_count: 4, id: 'b2', metadata: {}, outputs: [], source: ['x = 1'] },
  ];
  const nb = { cells, metadata: { language_info: { name: 'python' } }, nbformat: 4, nbformat_minor: 5 };
  return `${JSON.stringify(nb, null, 1)}\n`;
}

type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean };

/** The tool_result block answering `id` in a Messages request body. */
function resultFor(body: any, id: string): { text: string; isError: boolean } {
  const blocks: Block[] = body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : []));
  const block = blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === id);
  if (!block) throw new Error(`no tool_result for ${id}`);
  const content = block.content;
  const text = typeof content === 'string' ? content : (content as { text?: string }[]).map((p) => p.text ?? '').join('');
  return { text, isError: block.is_error === true };
}

function toolNames(body: any): string[] {
  return (body.tools ?? []).map((tool: { name: string }) => tool.name);
}

const LOAD = { toolCalls: [{ id: 'toolu_search', name: 'ToolSearch', arguments: { query: 'select:NotebookEdit' } }] };

/** Runs one claude-code turn in a repo holding `files` over the scripted steps; the requests it sent. */
async function turnIn(files: Record<string, string>, steps: (repo: string) => MockTurn[]): Promise<{ repo: string; stdout: string; requests: any[] }> {
  const repo = tempGitRepo(files);
  const home = tempRigHome({ url: mock.url, wire: 'messages' });
  dirs.push(repo, home);
  const before = mock.requests.length;
  mock.enqueue(LOAD, ...steps(repo));
  const run = await runRig(['exec', '--json', '--harness', 'claude-code', '-s', 'workspace-write', 'edit the notebook'], { cwd: repo, home });
  expect(run.code, run.stderr).toBe(0);
  return { repo, stdout: run.stdout, requests: mock.requests.slice(before).map((r) => r.body as any) };
}

describe('NotebookEdit (claude-code)', () => {
  test('read the cells, replace one, insert one, delete one; the rest of the file is untouched', async () => {
    const { repo, stdout, requests } = await turnIn({ 'sums.ipynb': notebook() }, (repo) => {
      const path = join(repo, 'sums.ipynb');
      return [
        { toolCalls: [{ id: 'toolu_read', name: 'Read', arguments: { file_path: path } }] },
        { toolCalls: [{ id: 'toolu_replace', name: 'NotebookEdit', arguments: { notebook_path: path, cell_id: 'a1', new_source: 'print(2 + 2)\nprint("ok")' } }] },
        { toolCalls: [{ id: 'toolu_insert', name: 'NotebookEdit', arguments: { notebook_path: path, cell_id: 'a1', cell_type: 'markdown', edit_mode: 'insert', new_source: 'Now the total:' } }] },
        { toolCalls: [{ id: 'toolu_delete', name: 'NotebookEdit', arguments: { notebook_path: path, cell_id: 'b2', new_source: '', edit_mode: 'delete' } }] },
        { text: 'done' },
      ];
    });
    const path = join(repo, 'sums.ipynb');
    expect(toolNames(requests[0])).not.toContain('NotebookEdit');
    expect(toolNames(requests[1])).toContain('NotebookEdit');
    const read = resultFor(requests[2], 'toolu_read').text;
    expect(read).toContain('<cell id="intro"><cell_type>markdown</cell_type># Sums\nAdds numbers.</cell id="intro">');
    expect(read).toContain('<cell id="a1">print(1 + 2)</cell id="a1">');
    expect(read).toContain('3\n');
    expect(resultFor(requests[3], 'toolu_replace')).toEqual({ text: 'Updated cell a1 with print(2 + 2)\nprint("ok")', isError: false });
    const inserted = resultFor(requests[4], 'toolu_insert');
    expect(inserted.isError).toBe(false);
    expect(inserted.text).toMatch(/^Inserted cell [0-9a-f]{8} with Now the total:$/);
    expect(resultFor(requests[5], 'toolu_delete')).toEqual({ text: 'Deleted cell b2', isError: false });

    const written = readFileSync(path, 'utf8');
    expect(written.startsWith('{\n "cells": [\n  {\n')).toBe(true);
    expect(written.endsWith('}\n')).toBe(true);
    const nb = JSON.parse(written);
    expect(nb.nbformat_minor).toBe(5);
    expect(nb.cells.map((cell: { id: string }) => cell.id)).toEqual(['intro', 'a1', inserted.text.split(' ')[2]]);
    expect(nb.cells[0]).toEqual(JSON.parse(notebook()).cells[0]);
    // The replaced code cell's old outputs described the old code: cleared.
    expect(nb.cells[1]).toEqual({ cell_type: 'code', execution_count: null, id: 'a1', metadata: {}, outputs: [], source: ['print(2 + 2)\n', 'print("ok")'] });
    expect(nb.cells[2]).toMatchObject({ cell_type: 'markdown', metadata: {}, source: ['Now the total:'] });
    expect(nb.cells[2]).not.toHaveProperty('outputs');
    // Each edit is a file change in the event stream, like Edit and Write.
    const changes = jsonLines(stdout).filter((e) => e.type === 'item.completed' && (e.item as { type: string }).type === 'file_change');
    expect(changes).toHaveLength(3);
  });

  test('mistakes come back as errors the model can act on, and leave the file alone', async () => {
    const { repo, requests } = await turnIn({ 'sums.ipynb': notebook(), 'notes.txt': 'plain\n' }, (repo) => {
      const path = join(repo, 'sums.ipynb');
      return [
        { toolCalls: [{ id: 'toolu_unread', name: 'NotebookEdit', arguments: { notebook_path: path, cell_id: 'a1', new_source: 'y = 2' } }] },
        { toolCalls: [{ id: 'toolu_read', name: 'Read', arguments: { file_path: path } }] },
        {
          toolCalls: [
            { id: 'toolu_missing', name: 'NotebookEdit', arguments: { notebook_path: path, cell_id: 'zz', new_source: 'y = 2' } },
            { id: 'toolu_notype', name: 'NotebookEdit', arguments: { notebook_path: path, cell_id: 'a1', edit_mode: 'insert', new_source: 'y = 2' } },
            { id: 'toolu_txt', name: 'NotebookEdit', arguments: { notebook_path: join(repo, 'notes.txt'), cell_id: 'a1', new_source: 'y' } },
          ],
        },
        { text: 'gave up' },
      ];
    });
    const path = join(repo, 'sums.ipynb');
    expect(resultFor(requests[2], 'toolu_unread')).toMatchObject({ isError: true, text: expect.stringMatching(/read/i) });
    expect(resultFor(requests[4], 'toolu_missing').text).toContain('Cell with ID "zz" not found in notebook.');
    expect(resultFor(requests[4], 'toolu_notype').text).toContain('Cell type is required when using edit_mode=insert.');
    expect(resultFor(requests[4], 'toolu_txt').text).toContain('must be a Jupyter notebook (.ipynb file)');
    expect(readFileSync(path, 'utf8')).toBe(notebook());
  });

  test('a notebook without cell ids (nbformat 4.4) is addressed by position', async () => {
    const old = JSON.parse(notebook());
    old.nbformat_minor = 4;
    for (const cell of old.cells) delete cell.id;
    const { repo, requests } = await turnIn({ 'old.ipynb': `${JSON.stringify(old, null, 1)}\n` }, (repo) => {
      const path = join(repo, 'old.ipynb');
      return [
        { toolCalls: [{ id: 'toolu_read', name: 'Read', arguments: { file_path: path } }] },
        { toolCalls: [{ id: 'toolu_replace', name: 'NotebookEdit', arguments: { notebook_path: path, cell_id: 'cell-2', new_source: 'x = 5' } }] },
        { toolCalls: [{ id: 'toolu_append', name: 'NotebookEdit', arguments: { notebook_path: path, cell_id: 'cell-3', new_source: 'x' } }] },
        { text: 'done' },
      ];
    });
    const path = join(repo, 'old.ipynb');
    expect(resultFor(requests[2], 'toolu_read').text).toContain('<cell id="cell-2">x = 1</cell id="cell-2">');
    expect(resultFor(requests[3], 'toolu_replace').text).toBe('Updated cell cell-2 with x = 5');
    // Replacing the cell one past the last appends a code cell.
    expect(resultFor(requests[4], 'toolu_append').text).toBe('Inserted cell cell-3 with x');
    const nb = JSON.parse(readFileSync(path, 'utf8'));
    expect(nb.cells).toHaveLength(4);
    expect(nb.cells[2].source).toEqual(['x = 5']);
    expect(nb.cells[3]).toEqual({ cell_type: 'code', metadata: {}, source: ['x'], execution_count: null, outputs: [] });
    expect(nb.cells.every((cell: object) => !('id' in cell))).toBe(true);
  });
});
