// The transcript's items and views: commands (live tail, collapsed when done, full in the pager),
// the plan as a checklist, dimmed reasoning, the spinner with elapsed time, the Ctrl+T pager in the
// alternate screen, notifications while unfocused, /copy, frame coalescing and idle quiet.
import { afterEach, describe, expect, it } from 'vitest';
import { loadHighlighter } from '../../../src/frontends/tui/view/highlighter.js';
import { renderMarkdown } from '../../../src/frontends/tui/view/markdown.js';
import { serialize } from '../../../src/frontends/tui/text/styled.js';
import { COLOR, startHarness, type Harness } from './support/harness.js';
import { execApproval, settingsUpdated } from './support/fake-port.js';

const USAGE = { input_tokens: 10, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 5, reasoning_output_tokens: 0 };
const harnesses: Harness[] = [];
async function harness(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness({ columns: 60, rows: 20, ...options });
  harnesses.push(h);
  return h;
}
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.app.exit(0);
});

const OUTPUT = Array.from({ length: 40 }, (_, index) => `output line ${index + 1}`).join('\n');

describe('transcript items', () => {
  it('a running command shows its spinner, elapsed time and output tail; done, it collapses in the scrollback', async () => {
    const h = await harness();
    await h.emit({ type: 'turn.started' }, { type: 'item.started', item: { id: 'c', type: 'command_execution', command: 'npm test', aggregated_output: '', exit_code: null, status: 'in_progress' } });
    h.clock.now += 3_200;
    await h.emit({ type: 'item.command_execution.output_delta', item_id: 'c', delta: 'one\ntwo\nthree\nfour\n' });
    let screen = h.term.screen();
    expect(screen[0]).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Running npm test \(3s\)$/);
    expect(screen.slice(1, 4)).toEqual(['    two', '    three', '    four']);
    h.clock.now += 62_000;
    await h.settle();
    expect(h.term.screen().join('\n')).toMatch(/Working \(1m 05s · esc to interrupt\)/);
    await h.emit({ type: 'item.completed', item: { id: 'c', type: 'command_execution', command: 'npm test', aggregated_output: OUTPUT, exit_code: 1, status: 'failed' } });
    screen = h.term.screen();
    expect(screen.slice(0, 7)).toEqual([
      '• Ran npm test (exit 1)',
      '  └ output line 1',
      '    output line 2',
      '    … 35 more lines (ctrl+t shows all)',
      '    output line 38',
      '    output line 39',
      '    output line 40',
    ]);
  });

  it('shows the plan as a checklist while it runs and in the scrollback when done; reasoning dimmed', async () => {
    const h = await harness({ caps: COLOR });
    await h.emit(
      { type: 'turn.started' },
      { type: 'item.started', item: { id: 'p', type: 'todo_list', items: [{ text: 'read the code', completed: true }, { text: 'fix it', completed: false }] } },
    );
    expect(h.term.screen().slice(0, 3)).toEqual(['• Plan', '  ✔ read the code', '  ☐ fix it']);
    await h.emit({ type: 'item.completed', item: { id: 'r', type: 'reasoning', text: 'The bug is in the range parser.' } });
    const row = h.term.screen().indexOf('The bug is in the range parser.');
    expect(row).toBeGreaterThanOrEqual(0);
    expect(h.term.cell(0, row)!.isDim()).toBeTruthy();
    expect(h.term.cell(0, row)!.isItalic()).toBeTruthy();
    await h.emit({ type: 'item.completed', item: { id: 'p', type: 'todo_list', items: [{ text: 'read the code', completed: true }, { text: 'fix it', completed: true }] } }, { type: 'turn.completed', usage: USAGE });
    expect(h.term.logicalLines()).toEqual(expect.arrayContaining(['• Plan', '  ✔ read the code', '  ✔ fix it']));
  });

  it('Ctrl+T opens the whole transcript (full output) in the alternate screen; q gives the main screen back untouched', async () => {
    const h = await harness({ rows: 12 });
    await h.type('run it\r');
    await h.emit({ type: 'turn.started' }, { type: 'item.completed', item: { id: 'c', type: 'command_execution', command: 'seq 40', aggregated_output: OUTPUT, exit_code: 0, status: 'completed' } }, { type: 'turn.completed', usage: USAGE });
    const before = h.term.logicalLines();
    const writes = h.term.writes.length;
    await h.type('\x14');
    expect(h.term.writes[writes]).toContain('\x1b[?1049h');
    expect(h.term.term.buffer.active.type).toBe('alternate');
    // Pinned to the end: the last output lines and the footer.
    expect(h.term.screen().slice(-3)).toEqual(['    output line 39', '    output line 40', ' transcript 43/43 · ↑↓ PgUp PgDn Home End · q closes']);
    await h.type('g');
    expect(h.term.screen().slice(0, 4)).toEqual(['› run it', '', '• Ran seq 40', '  └ output line 1']);
    await h.type('\x1b[6~');
    expect(h.term.screen()[0]).toBe('    output line 9');
    await h.type('q');
    expect(h.term.term.buffer.active.type).toBe('normal');
    expect(h.term.logicalLines()).toEqual(before);
  });

  it('rings the bell and sends OSC 9 when a turn ends or an approval waits while unfocused (and not when focused)', async () => {
    const h = await harness({ tui: { notifications: true } });
    await h.emit({ type: 'turn.started' }, { type: 'turn.completed', usage: USAGE });
    expect(h.term.output).not.toContain('\x1b]9;');
    await h.type('\x1b[O');
    const start = h.term.output.length;
    await h.emit({ type: 'turn.started' }, execApproval({ id: 'a', command: ['ls'], cwd: '/srv' }));
    expect(h.term.output.slice(start)).toContain('\x07\x1b]9;rig is waiting for your approval\x07');
    await h.type('y');
    await h.emit({ type: 'turn.completed', usage: USAGE });
    expect(h.term.output.slice(start)).toContain('\x1b]9;rig finished the turn\x07');
  });

  it('/copy puts the last answer on the clipboard with OSC 52', async () => {
    const h = await harness();
    await h.emit({ type: 'turn.started' }, { type: 'item.completed', item: { id: 'm', type: 'agent_message', text: 'the answer: 42' } }, { type: 'turn.completed', usage: USAGE });
    await h.type('/copy\r');
    expect(h.term.output).toContain(`\x1b]52;c;${Buffer.from('the answer: 42').toString('base64')}\x07`);
  });
});

describe('frames', () => {
  it('coalesces a burst of stream events into one frame, and draws nothing while nothing changes', async () => {
    const h = await harness();
    await h.emit({ type: 'turn.started' }, { type: 'item.started', item: { id: 'm', type: 'agent_message', text: '' } });
    // The harness draws synchronously after each step; let the app schedule on its own here.
    const frames = h.app.renderer.stats.frames;
    for (let index = 0; index < 500; index++) h.port.emit({ type: 'item.agent_message.delta', item_id: 'm', delta: `word${index} ` });
    await h.port.drained();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(h.app.renderer.stats.frames - frames).toBeLessThanOrEqual(5);
    await h.emit({ type: 'item.completed', item: { id: 'm', type: 'agent_message', text: '' } }, { type: 'turn.completed', usage: USAGE });
    const idle = h.app.renderer.stats.frames;
    await new Promise((resolve) => setTimeout(resolve, 250));
    h.app.renderNow();
    expect(h.app.renderer.stats.frames).toBe(idle);
  });

  it('a keystroke rewrites only the composer row, in few bytes', async () => {
    const h = await harness({ caps: COLOR });
    await h.emit(settingsUpdated());
    await h.type('a fairly long prompt that is being typed');
    const bytes = h.app.renderer.stats.bytes;
    await h.type('x');
    const write = h.term.writes[h.term.writes.length - 1]!;
    expect(h.app.renderer.stats.bytes - bytes).toBeLessThan(80);
    expect(write).not.toContain('gpt-5.5');
    expect(write).toContain('x');
  });
});

describe('markdown', () => {
  it('highlights fenced code once the highlighter is loaded, and links use OSC 8 where supported', async () => {
    await loadHighlighter();
    const lines = renderMarkdown('Read [the docs](https://example.com/d).\n\n```ts\nconst x: number = 1; // one\n```', { width: 60, mode: 'history', hyperlinks: true });
    const text = lines.map((line) => line.map((part) => part.text).join(''));
    expect(text).toEqual(['Read the docs.', '', 'const x: number = 1; // one']);
    const code = serialize(lines[2]!, { color: true, attributes: true, hyperlinks: true });
    expect(code).toContain('\x1b[35mconst'); // keyword
    expect(code).toContain('\x1b[33m1'); // number
    expect(serialize(lines[0]!, { color: true, attributes: true, hyperlinks: true })).toContain('\x1b]8;;https://example.com/d\x1b\\');
    // Without OSC 8 the target is printed.
    expect(renderMarkdown('[the docs](https://example.com/d)', { width: 60, mode: 'history', hyperlinks: false })[0]!.map((part) => part.text).join('')).toBe('the docs (https://example.com/d)');
  });

  it('aligns a table, and prints lines without trailing padding', () => {
    const lines = renderMarkdown('| a | long header |\n|---|---|\n| 1 | x |', { width: 60, mode: 'history', hyperlinks: false }).map((line) => line.map((part) => part.text).join(''));
    expect(lines).toEqual(['a │ long header', '──┼────────────', '1 │ x']);
    for (const line of lines) expect(line).toBe(line.trimEnd());
  });

  it('keeps model text from injecting escape sequences', async () => {
    const h = await harness();
    await h.emit({ type: 'turn.started' }, { type: 'item.completed', item: { id: 'm', type: 'agent_message', text: 'safe \x1b[2J\x1b]52;c;ZXZpbA==\x07text' } });
    expect(h.term.output).not.toContain('\x1b[2J');
    expect(h.term.output).not.toContain('ZXZpbA==');
    expect(h.term.logicalLines()).toContain('safe text');
  });
});
