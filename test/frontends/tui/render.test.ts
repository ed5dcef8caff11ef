// Render tests against a real terminal emulator (@xterm/headless): exact cells of the screen and
// the scrollback while a message streams, for a diff, an approval modal, wide characters, a
// resize wide -> narrow -> wide, a 20-column terminal, NO_COLOR and TERM=dumb. No frame may clear
// the scrollback (CSI 3J) unless the user asked for a reflow.
import { afterEach, describe, expect, it } from 'vitest';
import { PLAIN_CAPABILITIES } from '../../../src/frontends/tui/text/styled.js';
import { textWidth } from '../../../src/frontends/tui/text/width.js';
import { COLOR, NO_COLOR, startHarness, type Harness } from './support/harness.js';
import { execApproval, settingsUpdated } from './support/fake-port.js';

const CLEAR_SCROLLBACK = '\x1b[3J';
const USAGE = { input_tokens: 1200, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 300, reasoning_output_tokens: 0 };
const DIFF = '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n export { a, b };\n';

/** Where the caret is drawn: the one inverse-video cell on the screen. */
function caret(h: Harness): { x: number; y: number } | undefined {
  for (let y = 0; y < h.term.rows; y++) for (let x = 0; x < h.term.columns; x++) if (h.term.cell(x, y)?.isInverse()) return { x, y };
  return undefined;
}

const started: Harness[] = [];
async function harness(options: Parameters<typeof startHarness>[0]): Promise<Harness> {
  const h = await startHarness(options);
  started.push(h);
  return h;
}

afterEach(async () => {
  // Whatever a test did, no frame cleared the scrollback.
  for (const h of started.splice(0)) {
    expect(h.term.writes.filter((write) => write.includes(CLEAR_SCROLLBACK))).toEqual([]);
    await h.app.exit(0);
  }
});

describe('render: streaming', () => {
  it('writes finished lines to the scrollback once and keeps only the tail live', async () => {
    const h = await harness({ columns: 40, rows: 12 });
    await h.emit(settingsUpdated({ sandbox_mode: 'read-only' }));
    // Shift+Enter (kitty) makes a newline; Enter sends.
    await h.type('explain\x1b[13;2uthe parser\r');
    expect(h.port.callsOf('submit')).toEqual([{ method: 'submit', input: { text: 'explain\nthe parser' } }]);
    await h.emit(
      { type: 'turn.started' },
      { type: 'item.started', item: { id: 'm1', type: 'agent_message', text: '' } },
      { type: 'item.agent_message.delta', item_id: 'm1', delta: 'The parser reads **one token** at a time.\n\nIt keeps a' },
    );
    expect(h.term.screen()).toEqual([
      '› explain',
      '  the parser',
      '',
      'The parser reads one token at a time.',
      '',
      'It keeps a',
      '⠋ Working (0s · esc to interrupt)',
      '',
      '› Ask rig anything · / commands · @ fil…',
      'gpt-5.5 · read-only · on-request · codex',
      '',
      '',
    ]);
    const bold = h.term.cell(4, 3)!;
    expect(h.term.screen()[3]!.slice(17, 26)).toBe('one token');
    expect(h.term.cell(17, 3)!.isBold()).toBeTruthy();
    expect(bold.isBold()).toBeFalsy();

    await h.emit(
      { type: 'item.agent_message.delta', item_id: 'm1', delta: ' stack of open blocks.\n- first\n- second' },
      { type: 'item.completed', item: { id: 'm1', type: 'agent_message', text: 'The parser reads **one token** at a time.\n\nIt keeps a stack of open blocks.\n- first\n- second' } },
      { type: 'turn.completed', usage: USAGE },
    );
    expect(h.term.screen()).toEqual([
      '› explain',
      '  the parser',
      '',
      'The parser reads one token at a time.',
      '',
      'It keeps a stack of open blocks.',
      '• first',
      '• second',
      '',
      '› Ask rig anything · / commands · @ fil…',
      'gpt-5.5 · read-only · on-request · codex',
      '',
    ]);
  });

  it('scrolls long output into the scrollback in order, with the live region below it', async () => {
    const h = await harness({ columns: 40, rows: 10 });
    await h.type('count\r');
    await h.emit({ type: 'turn.started' }, { type: 'item.started', item: { id: 'm', type: 'agent_message', text: '' } });
    for (let line = 1; line <= 30; line++) h.port.emit({ type: 'item.agent_message.delta', item_id: 'm', delta: `line ${line}\n` });
    await h.settle();
    const all = h.term.logicalLines();
    expect(all.slice(0, 32)).toEqual(['› count', '', ...Array.from({ length: 30 }, (_, index) => `line ${index + 1}`)]);
    expect(all.slice(32)).toEqual(['⠋ Working (0s · esc to interrupt)', '', '› Ask rig anything · / commands · @ fil…']);
    // Each finished line was written exactly once.
    expect(h.term.output.split('line 17\r\n').length).toBe(2);
  });
});

describe('render: diffs and approvals', () => {
  it('shows a file change as a coloured unified diff with line numbers', async () => {
    const h = await harness({ columns: 40, rows: 14, caps: COLOR });
    await h.emit(settingsUpdated(), { type: 'turn.started' });
    await h.emit({ type: 'item.completed', item: { id: 'f1', type: 'file_change', changes: [{ path: 'src/a.ts', kind: 'update', diff: DIFF }], status: 'completed' } });
    expect(h.term.screen().slice(0, 5)).toEqual(['• Edited src/a.ts (+1 -1)', '  1  const a = 1;', '  2 -const b = 2;', '  2 +const b = 3;', '  3  export { a, b };']);
    const red = h.term.cell(4, 2)!;
    const green = h.term.cell(4, 3)!;
    const context = h.term.cell(5, 1)!;
    expect([red.isFgPalette(), red.getFgColor()]).toEqual([true, 1]);
    expect([green.isFgPalette(), green.getFgColor()]).toEqual([true, 2]);
    expect(context.isFgDefault()).toBe(true);
  });

  it('asks an approval in a modal: the command shell-quoted, directory, sandbox, reason, the four answers', async () => {
    const h = await harness({ columns: 40, rows: 14 });
    await h.emit(settingsUpdated(), { type: 'turn.started' });
    await h.emit(execApproval({ id: 'a1', command: ['git', 'push', 'origin', 'my branch'], cwd: '/srv/app', reason: 'publish the fix', proposed_prefix: ['git', 'push'] }));
    expect(h.term.screen()).toEqual([
      '⠋ Waiting for approval (0s · answer bel…',
      '▌ Run this command?',
      "│ $ git push origin 'my branch'",
      '│ in /srv/app  sandbox workspace-write',
      '│ publish the fix',
      '│ › y  Yes, run it once',
      "│   a  Yes, and don't ask again for com…",
      '│   n  No, and tell the model what to d…',
      '│   s  No, and stop the turn (Esc)',
      'gpt-5.5 · workspace-write · on-request',
      '',
      '',
      '',
      '',
    ]);
    // On a wider terminal the whole prefix shows.
    h.term.resize(80, 14);
    await h.settle();
    expect(h.term.screen()).toContain("│   a  Yes, and don't ask again for commands starting with `git push`");
    await h.type('a');
    expect(h.port.callsOf('answerApproval')).toEqual([{ method: 'answerApproval', requestId: 'a1', answer: { decision: 'approve_for_session' } }]);
    expect(h.term.screen()[0]).toBe("✔ You approved for this session: git push origin 'my branch'");
  });

  it('shows the diff of a file change approval, and takes "no" with feedback text', async () => {
    const h = await harness({ columns: 50, rows: 16 });
    await h.emit({ type: 'turn.started' }, { type: 'approval.requested', request: { kind: 'file_change', id: 'p1', item_id: 'f1', paths: ['src/a.ts'], changes: [{ path: 'src/a.ts', kind: 'update', diff: DIFF }], sandboxed: true } });
    const screen = h.term.screen();
    expect(screen.slice(1, 7)).toEqual(['▌ Apply this change?', '│ edit src/a.ts', '│ 1  const a = 1;', '│ 2 -const b = 2;', '│ 2 +const b = 3;', '│ 3  export { a, b };']);
    await h.type('n');
    await h.type('keep b at 2');
    expect(h.term.screen()).toContain('│   what should it do instead? keep b at 2');
    expect(caret(h)?.x).toBe('│   what should it do instead? keep b at 2'.length);
    await h.type('\r');
    expect(h.port.callsOf('answerApproval')).toEqual([{ method: 'answerApproval', requestId: 'p1', answer: { decision: 'deny', feedback: 'keep b at 2' } }]);
  });

  it('Esc in the modal answers "no, and stop"', async () => {
    const h = await harness({ columns: 50, rows: 16 });
    await h.emit({ type: 'turn.started' }, execApproval({ id: 'x', command: ['make'], cwd: '/srv' }));
    await h.type('\x1b[27u');
    expect(h.port.callsOf('answerApproval')).toEqual([{ method: 'answerApproval', requestId: 'x', answer: { decision: 'abort' } }]);
  });
});

describe('render: wide characters', () => {
  it('places CJK, emoji and combining marks in the right cells, with the caret after them', async () => {
    const h = await harness({ columns: 30, rows: 10 });
    await h.type('日本語のテキスト 👍🚀 é');
    expect(h.term.screen()[1]).toBe('› 日本語のテキスト 👍🚀 é');
    expect(caret(h)).toEqual({ x: 25, y: 1 });
    // Backspace removes the whole cluster (e + combining acute), then a whole emoji.
    await h.type('\x7f\x7f\x7f');
    expect(h.term.screen()[1]).toBe('› 日本語のテキスト 👍');
    expect(caret(h)).toEqual({ x: 21, y: 1 });
    await h.type('\r');
    await h.emit({ type: 'turn.started' }, { type: 'item.completed', item: { id: 'm', type: 'agent_message', text: '中文的回答，包含很多汉字，用于测试换行是否正确。✅ done' } }, { type: 'turn.completed', usage: USAGE });
    expect(h.term.screen().slice(0, 5)).toEqual(['› 日本語のテキスト 👍', '', '中文的回答，包含很多汉字，用于', '测试换行是否正确。✅', 'done']);
  });

  it('never splits a wide character across the edge of a narrow live region', async () => {
    const h = await harness({ columns: 21, rows: 10 });
    await h.type('一二三四五六七八九十');
    // 2 + 20 cells do not fit in 21: the composer wraps before the tenth character.
    expect(h.term.screen().slice(1, 3)).toEqual(['› 一二三四五六七八九', '  十']);
    expect(caret(h)).toEqual({ x: 4, y: 2 });
  });
});

describe('render: resize', () => {
  it('re-wraps the live region at once and leaves the scrollback as it was (wide -> narrow -> wide)', async () => {
    const h = await harness({ columns: 60, rows: 12 });
    await h.emit(settingsUpdated());
    await h.type('make the tests pass\r');
    const answer = Array.from({ length: 14 }, (_, index) => `Paragraph ${index + 1} says something long enough to be wrapped at forty columns.`).join('\n');
    await h.emit({ type: 'turn.started' }, { type: 'item.completed', item: { id: 'm', type: 'agent_message', text: `${answer}\nsee https://example.com/a/very/long/path/that/must/stay/in/one/piece/for/copying` } }, { type: 'turn.completed', usage: USAGE });
    await h.type('draft');
    const live = ['', '› draft', 'gpt-5.5 · workspace-write · on-request · codex · 1.5k tokens'];
    const before = h.term.logicalLines();
    expect(before.slice(-3)).toEqual(live);
    const history = before.slice(0, -3);
    // A URL longer than the line is printed whole (on a line of its own): the terminal wraps it
    // softly, so selecting it copies one piece.
    expect(history).toContain('https://example.com/a/very/long/path/that/must/stay/in/one/piece/for/copying');

    h.term.resize(24, 12);
    await h.settle();
    const narrow = h.term.screen().filter((row) => row !== '');
    expect(narrow.slice(-2)).toEqual(['› draft', 'gpt-5.5 · codex']);
    // One live region, not a ghost of the wide one.
    expect(h.term.logicalLines().filter((line) => line.startsWith('› draft'))).toHaveLength(1);

    h.term.resize(60, 12);
    await h.settle();
    const after = h.term.logicalLines();
    expect(after.slice(0, -3)).toEqual(history);
    expect(after.slice(-3)).toEqual(live);
    expect(caret(h)).toEqual({ x: 7, y: h.term.screen().indexOf('› draft') });
  });

  it('re-wraps at once: the frame is written by the resize itself, before any timer', async () => {
    const h = await harness({ columns: 50, rows: 10 });
    await h.type('hello');
    const writes = h.term.writes.length;
    h.term.resize(30, 10);
    expect(h.term.writes.length).toBe(writes + 1);
  });

  it('/reflow redraws the history at the new width and is the one thing that clears the scrollback', async () => {
    const h = await startHarness({ columns: 60, rows: 10 });
    await h.type('a question that is long enough to wrap when narrow\r');
    await h.emit({ type: 'turn.started' }, { type: 'turn.completed', usage: USAGE });
    h.term.resize(30, 10);
    await h.settle();
    await h.type('/reflow\r');
    const clears = h.term.writes.filter((write) => write.includes(CLEAR_SCROLLBACK));
    expect(clears).toHaveLength(1);
    expect(h.term.screen().slice(0, 2)).toEqual(['› a question that is long', '  enough to wrap when narrow']);
    await h.app.exit(0);
  });
});

describe('render: small and plain terminals', () => {
  it('works at 20 columns: no row wider than the screen, nothing wraps in the live region', async () => {
    const h = await harness({ columns: 20, rows: 12 });
    await h.emit(settingsUpdated({ model: 'gpt-5.5-codex-max', harness: 'claude-code' }));
    await h.type('日本語 and 👍 text that wraps\r');
    await h.emit(
      { type: 'turn.started' },
      { type: 'item.started', item: { id: 'c', type: 'command_execution', command: 'npm test -- --reporter verbose', aggregated_output: '', exit_code: null, status: 'in_progress' } },
      { type: 'item.command_execution.output_delta', item_id: 'c', delta: 'a very long line of output that goes on\n日本語日本語日本語日本語\n' },
    );
    const check = () => {
      const buffer = h.term.term.buffer.active;
      for (let row = 0; row < h.term.rows; row++) {
        const line = buffer.getLine(buffer.baseY + row)!;
        expect(textWidth(line.translateToString(true))).toBeLessThanOrEqual(20);
      }
      // The live region is the bottom rows: none of them is a soft-wrapped continuation.
      const last = h.term.rows - 1;
      for (let row = last - 4; row <= last; row++) expect(buffer.getLine(buffer.baseY + row)!.isWrapped).toBe(false);
    };
    check();
    await h.emit(execApproval({ id: 'a', command: ['rm', '-rf', 'node_modules'], cwd: '/srv/some/long/path', reason: 'clean up before the reinstall' }));
    check();
    expect(h.term.screen().join('\n')).toContain('│ › y  Yes, run it…');
  });

  it('NO_COLOR: no colour codes, attributes kept', async () => {
    const h = await harness({ columns: 40, rows: 10, caps: NO_COLOR });
    await h.type('hi\r');
    await h.emit({ type: 'turn.started' }, { type: 'item.completed', item: { id: 'f', type: 'file_change', changes: [{ path: 'a', kind: 'update', diff: DIFF }], status: 'completed' } });
    const sgr = [...h.term.output.matchAll(/\x1b\[([0-9;]*)m/g)].flatMap((match) => match[1]!.split(';'));
    expect(sgr.filter((code) => /^(3[0-7]|9[0-7]|4[0-7]|10[0-7]|38|48)$/.test(code))).toEqual([]);
    expect(sgr).toContain('1');
  });

  it('TERM=dumb: no escape sequence at all; the prompt line is redrawn with CR and spaces', async () => {
    const h = await startHarness({ columns: 40, rows: 20, caps: PLAIN_CAPABILITIES, tui: { plain: true } });
    await h.type('hello');
    await h.type('\x7f\x7f');
    await h.type('p\r');
    await h.emit({ type: 'turn.started' }, execApproval({ id: 'a', command: ['ls'], cwd: '/srv' }));
    expect(h.term.output).not.toContain('\x1b');
    expect(h.port.callsOf('submit')).toEqual([{ method: 'submit', input: { text: 'help' } }]);
    expect(h.term.screen().map((row) => row.trimEnd()).filter((row) => row !== '')).toEqual(['› help', '▌ Run this command?', '│ $ ls', '│ in /srv', '│ › y  Yes, run it once', "│   a  Yes, and don't ask again for com…", '│   n  No, and tell the model what to d…', '│   s  No, and stop the turn (Esc)', 'answer [y/a/n/s]:']);
    await h.type('y');
    expect(h.port.callsOf('answerApproval')).toHaveLength(1);
    await h.app.exit(0);
  });
});
