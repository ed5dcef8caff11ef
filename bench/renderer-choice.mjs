// The measurement behind the TUI's renderer choice (issue "The interactive session", item 2):
// rig's own inline renderer against @mariozechner/pi-tui and Ink 6 on the same scene: a composer
// line and a status line below a transcript of N finished items, on a fake 100x30 terminal.
// Each candidate runs in a fresh process; figures are medians over --runs processes.
//
// The candidates are not rig dependencies; install them somewhere else first:
//   npm install --prefix /tmp/renderer-eval @mariozechner/pi-tui ink@6 react@19
//   node bench/renderer-choice.mjs --candidates /tmp/renderer-eval [--runs 5] [--items 10000]
//
// Figures: import (loading the library), first frame (process start -> first byte written),
// keystroke p50/p99 (a key changes the composer -> the frame is written) with N items in the
// transcript, bytes written per keystroke, and RSS/heap after the run.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : fallback;
};

if (option('--child')) {
  await child(option('--child'), option('--candidates'), Number(option('--items', '10000')), option('--rig'));
} else {
  await parent();
}

async function parent() {
  const candidates = option('--candidates');
  if (!candidates) throw new Error('give --candidates DIR (a directory where @mariozechner/pi-tui, ink@6 and react are installed)');
  const runs = Number(option('--runs', '5'));
  const items = option('--items', '10000');
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const scratch = mkdtempSync(join(tmpdir(), 'rig-renderer-choice-'));
  const rigBundle = join(scratch, 'rig-renderer.mjs');
  await build({
    stdin: {
      contents: "export { InlineRenderer } from './src/frontends/tui/terminal/renderer.ts'; export { serialize } from './src/frontends/tui/text/styled.ts';",
      resolveDir: repo,
      loader: 'ts',
    },
    outfile: rigBundle,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  const results = {};
  for (const name of ['rig', 'pi-tui', 'ink']) {
    const samples = [];
    for (let run = 0; run <= runs; run++) {
      const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', name, '--candidates', resolve(candidates), '--items', items, '--rig', rigBundle], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`${name} failed:\n${out.stderr}`);
      if (run > 0) samples.push(JSON.parse(out.stdout.trim().split('\n').pop()));
    }
    const median = (key) => {
      const values = samples.map((sample) => sample[key]).sort((a, b) => a - b);
      return values[Math.floor(values.length / 2)];
    };
    results[name] = Object.fromEntries(Object.keys(samples[0]).map((key) => [key, median(key)]));
  }
  rmSync(scratch, { recursive: true, force: true });
  const keys = Object.keys(results.rig);
  const pad = (text, width) => String(text).padEnd(width);
  process.stdout.write(`${pad('', 28)}${Object.keys(results).map((name) => pad(name, 12)).join('')}\n`);
  for (const key of keys) {
    process.stdout.write(`${pad(key, 28)}${Object.values(results).map((result) => pad(Number(result[key]).toFixed(key.includes('bytes') ? 0 : 2), 12)).join('')}\n`);
  }
  process.stdout.write(`(${runs} runs each, ${items} transcript items, node ${process.version})\n`);
}

function fakeTerminal(onWrite) {
  return {
    columns: 100,
    rows: 30,
    isTTY: true,
    bytes: 0,
    firstWriteAt: undefined,
    write(data) {
      this.bytes += Buffer.byteLength(String(data));
      this.firstWriteAt ??= performance.now();
      onWrite();
      return true;
    },
    on() {
      return this;
    },
    off() {
      return this;
    },
    once() {
      return this;
    },
    removeListener() {
      return this;
    },
    emit() {
      return false;
    },
  };
}

function historyText(index) {
  return `item ${index}: the agent ran a command and explained what it found in a sentence or two`;
}

async function child(name, candidates, items, rigBundle) {
  let waiting;
  const term = fakeTerminal(() => {
    const resolveWrite = waiting;
    waiting = undefined;
    resolveWrite?.();
  });
  const nextWrite = () => new Promise((resolveWrite) => (waiting = resolveWrite));
  const requireFrom = createRequire(join(candidates, 'package.json'));
  const importFrom = (specifier) => import(pathToFileURL(requireFrom.resolve(specifier)).href);
  const status = 'gpt-5.5 · codex · high · workspace-write · 97% context left';
  let driver;

  const importStart = performance.now();
  if (name === 'rig') {
    const { InlineRenderer, serialize } = await import(pathToFileURL(rigBundle).href);
    const importMs = performance.now() - importStart;
    const caps = { color: true, attributes: true, hyperlinks: false };
    const renderer = new InlineRenderer(term);
    const live = (text) => ({ lines: [serialize([{ text: '› ', style: { fg: 'cyan', bold: true } }, { text }], caps), serialize([{ text: status, style: { dim: true } }], caps)], cursor: { row: 0, col: 2 + text.length } });
    let pending;
    let scheduled = false;
    const schedule = () => {
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        const history = pending ?? [];
        pending = undefined;
        renderer.frame(history, live(driver.text));
      });
    };
    driver = {
      importMs,
      text: '',
      start: schedule,
      load: (count) => {
        pending = Array.from({ length: count }, (_, index) => serialize([{ text: historyText(index) }], caps));
        schedule();
      },
      type: (char) => {
        driver.text += char;
        schedule();
      },
    };
  } else if (name === 'pi-tui') {
    const { TUI, Text } = await importFrom('@mariozechner/pi-tui');
    const importMs = performance.now() - importStart;
    const terminal = {
      start() {},
      stop() {},
      async drainInput() {},
      write: (data) => term.write(data),
      get columns() {
        return term.columns;
      },
      get rows() {
        return term.rows;
      },
      get kittyProtocolActive() {
        return false;
      },
      moveBy() {},
      hideCursor() {},
      showCursor() {},
      clearLine() {},
      clearFromCursor() {},
      clearScreen() {},
      setTitle() {},
      setProgress() {},
    };
    const tui = new TUI(terminal);
    const history = [];
    const composer = new Text('› ');
    const statusLine = new Text(status);
    driver = {
      importMs,
      text: '',
      start: () => {
        tui.addChild(composer);
        tui.addChild(statusLine);
        tui.start();
      },
      load: (count) => {
        tui.removeChild(composer);
        tui.removeChild(statusLine);
        for (let index = 0; index < count; index++) {
          const text = new Text(historyText(index));
          history.push(text);
          tui.addChild(text);
        }
        tui.addChild(composer);
        tui.addChild(statusLine);
        tui.requestRender();
      },
      type: (char) => {
        driver.text += char;
        composer.setText(`› ${driver.text}`);
        tui.requestRender();
      },
    };
  } else {
    const React = (await importFrom('react')).default;
    const ink = await importFrom('ink');
    const importMs = performance.now() - importStart;
    const { render, Static, Box, Text } = ink;
    let setState;
    function App() {
      const [state, set] = React.useState({ items: [], text: '' });
      setState = set;
      return React.createElement(
        React.Fragment,
        null,
        React.createElement(Static, { items: state.items }, (item) => React.createElement(Text, { key: item.id }, item.text)),
        React.createElement(Box, { flexDirection: 'column' }, React.createElement(Text, { color: 'cyan' }, `› ${state.text}`), React.createElement(Text, { dimColor: true }, status)),
      );
    }
    const stdin = Object.assign(new (await import('node:stream')).PassThrough(), { isTTY: false });
    driver = {
      importMs,
      text: '',
      start: () => render(React.createElement(App), { stdout: term, stdin, stderr: term, patchConsole: false, exitOnCtrlC: false, maxFps: 60 }),
      load: (count) => setState((state) => ({ ...state, items: Array.from({ length: count }, (_, index) => ({ id: index, text: historyText(index) })) })),
      type: (char) => {
        driver.text += char;
        const text = driver.text;
        setState((state) => ({ ...state, text }));
      },
    };
  }

  const firstWrite = nextWrite();
  driver.start();
  await firstWrite;
  const firstFrameMs = term.firstWriteAt;

  const loaded = nextWrite();
  driver.load(items);
  await loaded;
  await new Promise((resolveWait) => setTimeout(resolveWait, 200));

  const latencies = [];
  const bytesBefore = term.bytes;
  const keys = 200;
  for (let index = 0; index < keys; index++) {
    const written = nextWrite();
    const startedAt = performance.now();
    driver.type(String.fromCharCode(97 + (index % 26)));
    await written;
    latencies.push(performance.now() - startedAt);
    // Keys arrive 25 ms apart (a fast typist), so frame-rate caps do not pile frames up.
    await new Promise((resolveWait) => setTimeout(resolveWait, 25));
  }
  const bytesPerKey = (term.bytes - bytesBefore) / keys;
  latencies.sort((a, b) => a - b);
  const memory = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({
      import_ms: driver.importMs,
      first_frame_ms: firstFrameMs,
      key_p50_ms: latencies[Math.floor(keys * 0.5)],
      key_p99_ms: latencies[Math.floor(keys * 0.99)],
      bytes_per_key: bytesPerKey,
      rss_mb: memory.rss / 1048576,
      heap_mb: memory.heapUsed / 1048576,
    })}\n`,
  );
  process.exit(0);
}
