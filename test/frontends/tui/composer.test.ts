// The composer and the key map, driven by the bytes a terminal sends, checked through what the
// session port receives and what the screen shows.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileIndex } from '../../../src/frontends/tui/input/file-index.js';
import { startHarness, type Harness } from './support/harness.js';

const USAGE = { input_tokens: 10, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 5, reasoning_output_tokens: 0 };
const ENTER = '\r';
const SHIFT_ENTER_KITTY = '\x1b[13;2u';
const SHIFT_ENTER_XTERM = '\x1b[27;2;13~';
const ALT_ENTER = '\x1b\r';
const CTRL_J = '\n';
const ESC = '\x1b';
const UP = '\x1b[A';
const DOWN = '\x1b[B';
const ALT_UP = '\x1b[1;3A';
const TAB = '\t';
const CTRL_C = '\x03';
const CTRL_D = '\x04';
const CTRL_R = '\x12';
const BACKSPACE = '\x7f';
const paste = (text: string) => `\x1b[200~${text}\x1b[201~`;

const harnesses: Harness[] = [];
const dirs: string[] = [];
async function harness(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness({ columns: 60, rows: 16, ...options });
  harnesses.push(h);
  return h;
}
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.app.exit(0);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Waits for the lone-ESC timeout (5 ms in the harness) to resolve a pending Esc. */
async function pressEscape(h: Harness): Promise<void> {
  h.term.type(ESC);
  await new Promise<void>((resolve) => {
    const check = () => (h.app.inputPending ? setTimeout(check, 2) : resolve());
    check();
  });
  await h.settle();
}

describe('composer: multi-line input', () => {
  it('Shift+Enter (kitty and xterm forms), Alt+Enter, Ctrl+J and a trailing backslash make newlines; Enter sends', async () => {
    const h = await harness();
    await h.type(`one${SHIFT_ENTER_KITTY}two${SHIFT_ENTER_XTERM}three${ALT_ENTER}four${CTRL_J}five\\`);
    await h.type(`${ENTER}six`);
    expect(h.port.callsOf('submit')).toEqual([]);
    expect(h.term.screen().slice(1, 7)).toEqual(['› one', '  two', '  three', '  four', '  five', '  six']);
    await h.type(ENTER);
    expect(h.port.callsOf('submit')).toEqual([{ method: 'submit', input: { text: 'one\ntwo\nthree\nfour\nfive\nsix' } }]);
  });

  it('edits with readline keys: Ctrl+A/E, Ctrl+W, Ctrl+U, Ctrl+K and Ctrl+Y, arrows across lines', async () => {
    const h = await harness();
    await h.type('hello big world');
    await h.type('\x17'); // Ctrl+W deletes "world"
    await h.type('\x01X'); // Ctrl+A, then insert at the start
    await h.type('\x05!'); // Ctrl+E, then append
    expect(h.app.composer.text).toBe('Xhello big !');
    await h.type('\x01\x0b'); // Ctrl+K kills to the end
    expect(h.app.composer.text).toBe('');
    await h.type('\x19'); // Ctrl+Y yanks it back
    expect(h.app.composer.text).toBe('Xhello big !');
    await h.type(`${SHIFT_ENTER_KITTY}second`);
    await h.type(`${UP}\x1b[D\x1b[D`);
    await h.type('_');
    // Up keeps the column (6, after "Xhello"), two lefts go back into the word.
    expect(h.app.composer.text).toBe('Xhel_lo big !\nsecond');
  });
});

describe('composer: paste', () => {
  it('shows a long paste as "[Pasted N lines]" and sends it back exactly, however long', async () => {
    const h = await harness();
    const body = Array.from({ length: 5000 }, (_, index) => `row ${index}\twith\ttabs and \x1b[31mno colour\x1b[0m`).join('\r\n');
    await h.type('look at this: ');
    // 4 kB reads, as a pty delivers a big paste.
    const data = paste(body);
    for (let at = 0; at < data.length; at += 4096) h.term.type(data.slice(at, at + 4096));
    await h.settle();
    await h.type(' thanks');
    expect(h.term.screen()[1]).toBe('› look at this: [Pasted 5000 lines] thanks');
    await h.type(ENTER);
    expect(h.port.callsOf('submit')).toEqual([{ method: 'submit', input: { text: `look at this: ${body.replace(/\r\n/g, '\n')} thanks` } }]);
  });

  it('a short paste goes in as text; Backspace removes a placeholder whole', async () => {
    const h = await harness();
    await h.type(paste('two\nlines'));
    expect(h.app.composer.text).toBe('two\nlines');
    await h.type(`${CTRL_C}`);
    await h.type(paste('a\nb\nc\nd\ne'));
    expect(h.term.screen()).toContain('› [Pasted 5 lines]');
    await h.type(BACKSPACE);
    expect(h.app.composer.isEmpty).toBe(true);
  });

  it('a pasted path to an image attaches it', async () => {
    const h = await harness({ tui: { fileExists: (path) => path === '/tmp/shot.png' } });
    await h.type(`what is wrong here ${paste('/tmp/shot.png')}`);
    expect(h.term.screen()[1]).toBe('› what is wrong here [Image shot.png]');
    await h.type(ENTER);
    expect(h.port.callsOf('submit')).toEqual([{ method: 'submit', input: { text: 'what is wrong here ', images: ['/tmp/shot.png'] } }]);
  });
});

describe('composer: history', () => {
  it('Up and Down walk the history and keep the draft; Ctrl+R searches it', async () => {
    const h = await harness({ tui: { history: ['fix the parser', 'run the tests', 'explain the lexer'] } });
    await h.type('draft');
    await h.type(UP);
    expect(h.app.composer.text).toBe('explain the lexer');
    await h.type(UP + UP);
    expect(h.app.composer.text).toBe('fix the parser');
    await h.type(DOWN + DOWN + DOWN);
    expect(h.app.composer.text).toBe('draft');
    await h.type(`${CTRL_C}${CTRL_R}the`);
    expect(h.term.screen()).toContain('search history: the  explain the lexer');
    await h.type(CTRL_R);
    expect(h.term.screen()).toContain('search history: the  run the tests');
    await h.type(ENTER);
    expect(h.port.callsOf('submit')).toEqual([{ method: 'submit', input: { text: 'run the tests' } }]);
  });
});

describe('keys: leaving', () => {
  it('Ctrl+C clears the composer first and exits on the second press', async () => {
    const h = await harness();
    await h.type('some text');
    await h.type(CTRL_C);
    expect(h.app.composer.isEmpty).toBe(true);
    expect(h.term.screen().join('\n')).toContain('input cleared · Ctrl+C again quits');
    let exited = false;
    void h.app.exited.then(() => (exited = true));
    await h.type(CTRL_C);
    await h.app.exited;
    expect(exited).toBe(true);
    expect(h.port.callsOf('close')).toHaveLength(1);
    // Leaving turns every mode off again and shows the cursor.
    expect(h.term.writes[h.term.writes.length - 1]).toContain('\x1b[?2004l');
    expect(h.term.writes[h.term.writes.length - 1]).toContain('\x1b[?25h');
  });

  it('Ctrl+D exits only when the composer is empty (else it deletes forward)', async () => {
    const h = await harness();
    await h.type('ab\x1b[D');
    await h.type(CTRL_D);
    expect(h.app.composer.text).toBe('a');
    await h.type(`${CTRL_C}`);
    await h.type(CTRL_D);
    await h.app.exited;
    expect(h.port.callsOf('close')).toHaveLength(1);
  });
});

describe('keys: a running turn', () => {
  it('Esc interrupts the turn', async () => {
    const h = await harness();
    await h.type(`go${ENTER}`);
    await h.emit({ type: 'turn.started' });
    await pressEscape(h);
    expect(h.port.callsOf('interrupt')).toHaveLength(1);
  });

  it('Enter queues a steering message (visible, delivered by the session), Tab one for after the turn', async () => {
    const h = await harness();
    await h.type(`go${ENTER}`);
    await h.emit({ type: 'turn.started' });
    await h.type(`also fix the docs${ENTER}`);
    await h.type(`then run the tests${TAB}`);
    const steer = h.port.callsOf('steer');
    expect(steer).toEqual([{ method: 'steer', id: steer[0]!.id, input: { text: 'also fix the docs' } }]);
    const screen = h.term.screen().join('\n');
    expect(screen).toContain('↳ at next tool boundary: also fix the docs');
    expect(screen).toContain('↳ after this turn: then run the tests');
    // The engine announces the delivery, then emits the message as a user_message item.
    await h.emit({ type: 'steer.delivered', steer_id: steer[0]!.id, item_id: 'u2' }, { type: 'item.completed', item: { id: 'u2', type: 'user_message', text: 'also fix the docs' } });
    expect(h.term.screen().join('\n')).not.toContain('at next tool boundary');
    expect(h.term.logicalLines().filter((line) => line === '› also fix the docs')).toHaveLength(1);
    expect(h.port.callsOf('submit')).toHaveLength(1);
    await h.emit({ type: 'turn.completed', usage: USAGE });
    expect(h.port.callsOf('submit')).toEqual([
      { method: 'submit', input: { text: 'go' } },
      { method: 'submit', input: { text: 'then run the tests' } },
    ]);
  });

  it('Alt+Up takes the last queued message back into the composer (retracting a steer)', async () => {
    const h = await harness();
    await h.type(`go${ENTER}`);
    await h.emit({ type: 'turn.started' });
    await h.type(`wrong steer${ENTER}`);
    await h.type(ALT_UP);
    await h.settle();
    expect(h.port.callsOf('retractSteer')).toHaveLength(1);
    expect(h.app.composer.text).toBe('wrong steer');
    expect(h.term.screen().join('\n')).not.toContain('↳');
  });

  it('an interrupted turn gives queued messages back to the composer', async () => {
    const h = await harness();
    await h.type(`go${ENTER}`);
    await h.emit({ type: 'turn.started' });
    await h.type(`later${TAB}`);
    await h.emit({ type: 'turn.interrupted', reason: '' });
    expect(h.app.composer.text).toBe('later');
    expect(h.port.callsOf('submit')).toHaveLength(1);
  });
});

describe('keys: Esc Esc edits the previous message', () => {
  it('loads the last message, Esc goes further back, Enter sends the edit through the port', async () => {
    const h = await harness();
    await h.type(`first question${ENTER}`);
    await h.emit({ type: 'turn.started' }, { type: 'item.completed', item: { id: 'u1', type: 'user_message', text: 'first question' } }, { type: 'turn.completed', usage: USAGE });
    await h.type(`second question${ENTER}`);
    await h.emit({ type: 'turn.started' }, { type: 'item.completed', item: { id: 'u2', type: 'user_message', text: 'second question' } }, { type: 'turn.completed', usage: USAGE });
    // The engine's echo of a prompt the TUI already printed is not printed again.
    expect(h.term.logicalLines().filter((line) => line === '› second question')).toHaveLength(1);
    await pressEscape(h);
    await pressEscape(h);
    expect(h.app.composer.text).toBe('second question');
    expect(h.term.screen().join('\n')).toContain('editing an earlier message');
    await pressEscape(h);
    expect(h.app.composer.text).toBe('first question');
    await h.type(`${BACKSPACE.repeat(8)}answer${ENTER}`);
    expect(h.port.callsOf('editMessage')).toEqual([{ method: 'editMessage', userMessageId: 'u1', input: { text: 'first answer' } }]);
  });
});

describe('slash commands', () => {
  it('completes from a palette and dispatches through the port', async () => {
    const h = await harness({ columns: 90 });
    await h.type('/');
    const screen = h.term.screen();
    expect(screen).toContain('› /compact  summarize the thread to free context');
    expect(screen).toContain('  /help     list the commands and keys');
    await h.type('mo');
    expect(h.term.screen()).toContain('› /model  [model] [effort]  choose the model and reasoning effort');
    await h.type(TAB);
    expect(h.app.composer.text).toBe('/model ');
    h.port.commandResults.set('model', { text: 'model set to **gpt-5.5** (high)' });
    await h.type(`gpt-5.5 high${ENTER}`);
    expect(h.port.callsOf('runCommand')).toEqual([{ method: 'runCommand', name: 'model', args: 'gpt-5.5 high' }]);
    await h.settle();
    expect(h.term.logicalLines()).toContain('model set to gpt-5.5 (high)');
    expect(h.port.callsOf('submit')).toEqual([]);
  });

  it('Enter on a selected command without arguments runs it', async () => {
    const h = await harness();
    await h.type(`/sta${ENTER}`);
    expect(h.port.callsOf('runCommand')).toEqual([{ method: 'runCommand', name: 'status', args: '' }]);
  });

  it('an unknown /word is never sent to the model', async () => {
    const h = await harness();
    await h.type(`/frobnicate now${ENTER}`);
    expect(h.port.callsOf('submit')).toEqual([]);
    expect(h.port.callsOf('runCommand')).toEqual([]);
    expect(h.term.logicalLines().some((line) => line.startsWith('■ unknown command /frobnicate'))).toBe(true);
    // A path is a message, not a command.
    await h.type(`/etc/hosts is wrong${ENTER}`);
    expect(h.port.callsOf('submit')).toEqual([{ method: 'submit', input: { text: '/etc/hosts is wrong' } }]);
  });

  it('/help lists the commands (the session\'s and the TUI\'s) and the keys', async () => {
    const h = await harness();
    await h.type(`/help${ENTER}`);
    const lines = h.term.logicalLines();
    expect(lines).toContain('Commands');
    expect(lines.some((line) => line.startsWith('  /model') && line.includes('[model] [effort]'))).toBe(true);
    expect(lines.some((line) => line.startsWith('  /quit'))).toBe(true);
    expect(lines.some((line) => line.startsWith('  Ctrl+T'))).toBe(true);
  });
});

describe('@path mentions', () => {
  it('fuzzy-completes files from git, leaving out what .gitignore ignores, and attaches images', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rig-tui-files-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'src', 'parser'), { recursive: true });
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, '.gitignore'), 'dist/\n*.log\n');
    writeFileSync(join(dir, 'src', 'parser', 'lexer.ts'), '');
    writeFileSync(join(dir, 'src', 'parser', 'parse-range.ts'), '');
    writeFileSync(join(dir, 'dist', 'parse-range.js'), '');
    writeFileSync(join(dir, 'parse.log'), '');
    writeFileSync(join(dir, 'screen.png'), '');
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const files = new FileIndex(dir);
    const h = await harness({ tui: { files, cwd: dir } });
    await h.type('look at @prsrng');
    expect(h.term.screen().join('\n')).toContain('reading the file list');
    await files.load();
    await h.settle();
    const screen = h.term.screen();
    expect(screen).toContain('› src/parser/parse-range.ts');
    expect(screen.join('\n')).not.toContain('dist/');
    await h.type(TAB);
    expect(h.app.composer.text).toBe('look at @src/parser/parse-range.ts ');
    await h.type('and @scr');
    await h.type(TAB);
    expect(h.term.screen()[1]).toBe('› look at @src/parser/parse-range.ts and [Image screen.png]');
    await h.type(ENTER);
    expect(h.port.callsOf('submit')).toEqual([{ method: 'submit', input: { text: 'look at @src/parser/parse-range.ts and ', images: ['screen.png'] } }]);
  });
});
