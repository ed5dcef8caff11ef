// The interactive session's figures (issue "The interactive session"):
// - first frame: spawning `rig tui-demo` in a pseudo-terminal -> its first frame (the composer);
//   the same for `rig` itself on the engine (the thread opens behind the first frame)
//   arrives; the built CLI, so the TUI chunk's lazy load is in it. Target 150 ms.
// - keystroke -> screen: a key typed into the TUI -> the frame that shows it is written, with 100
//   and with 10,000 finished items in the transcript (the cost must not depend on it). p99 target 16 ms.
// - bytes written per keystroke in steady state (typing at the end of a line). Target 200.
// - CPU while idle (nothing in progress, so no spinner): % of one core over 2 s. Target ~0.
// - a 2,000 tokens/s stream (about 8,000 characters/s) while typing: keys lost (target 0) and the
//   keystroke p99 during the stream.
// The in-process figures drive the real TuiApp on a terminal that only counts bytes, over a port
// that plays events, with the app's real frame scheduling (16 ms coalescing, setImmediate).
import { spawn as spawnPty } from '@lydell/node-pty';
import { performance } from 'node:perf_hooks';
import { TuiApp } from '../src/frontends/tui/app.js';
import type { ApprovalAnswer, CommandResult, SessionEvent, SessionPort, SlashCommandSpec } from '../src/frontends/tui/session-port.js';
import type { TuiTerminal } from '../src/frontends/tui/terminal/terminal.js';
import type { UserInput } from '../src/protocol/index.js';
import { median } from './measure.js';
import type { Metric } from './report.js';
import type { BenchEnv } from './workspace.js';

class CountingTerminal implements TuiTerminal {
  columns = 100;
  rows = 30;
  bytes = 0;
  writes = 0;
  private input: ((data: string) => void) | undefined;
  private waiters: (() => void)[] = [];

  write(data: string): void {
    this.bytes += Buffer.byteLength(data, 'utf8');
    this.writes++;
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  nextWrite(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  onInput(listener: (data: string) => void): () => void {
    this.input = listener;
    return () => (this.input = undefined);
  }

  onResize(): () => void {
    return () => undefined;
  }

  type(data: string): void {
    this.input?.(data);
  }
}

class PlayedPort implements SessionPort {
  private waiting: ((result: IteratorResult<SessionEvent>) => void) | undefined;
  private readonly queue: SessionEvent[] = [];
  private closed = false;
  readonly events: AsyncIterable<SessionEvent> = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        const event = this.queue.shift();
        if (event) return Promise.resolve({ value: event, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
    }),
  };

  emit(event: SessionEvent): void {
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value: event, done: false });
    } else this.queue.push(event);
  }

  async submit(_input: UserInput): Promise<void> {}
  async steer(): Promise<void> {}
  async retractSteer(): Promise<boolean> {
    return false;
  }
  async interrupt(): Promise<void> {}
  async answerApproval(_id: string, _answer: ApprovalAnswer): Promise<void> {}
  async editMessage(): Promise<void> {}
  commands(): readonly SlashCommandSpec[] {
    return [];
  }
  async runCommand(): Promise<CommandResult> {
    return {};
  }
  async close(): Promise<void> {
    this.closed = true;
    this.waiting?.({ value: undefined, done: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** Emits `items` finished items: user prompts, answers with Markdown, commands with output. */
function loadTranscript(port: PlayedPort, items: number): void {
  for (let index = 0; index < items; index++) {
    const id = `i${index}`;
    switch (index % 4) {
      case 0:
        port.emit({ type: 'item.completed', item: { id, type: 'user_message', text: `question ${index}: why does the parser skip the last token?` } });
        break;
      case 1:
        port.emit({ type: 'item.completed', item: { id, type: 'agent_message', text: `Because **parseRange** treats the end as inclusive (item ${index}).\n\n- first point\n- second point with \`code\`` } });
        break;
      case 2:
        port.emit({ type: 'item.completed', item: { id, type: 'command_execution', command: `rg -n parseRange src # ${index}`, aggregated_output: 'src/range.ts:1:export function parseRange\nsrc/range.ts:9:  return parseRange(x)\n', exit_code: 0, status: 'completed' } });
        break;
      default:
        port.emit({ type: 'item.completed', item: { id, type: 'reasoning', text: `thinking about item ${index}` } });
    }
  }
}

async function startApp(items: number): Promise<{ app: TuiApp; term: CountingTerminal; port: PlayedPort }> {
  const term = new CountingTerminal();
  const port = new PlayedPort();
  const app = new TuiApp({ terminal: term, port, caps: { color: true, attributes: true, hyperlinks: false }, cwd: process.cwd(), notifications: false });
  app.start();
  port.emit({
    type: 'thread.settings_updated',
    settings: { cwd: process.cwd(), model: 'gpt-5.5', model_provider: 'openai', harness: 'codex', sandbox_mode: 'workspace-write', approval_policy: 'on-request', yolo: false, context_window: 200_000 },
  });
  loadTranscript(port, items);
  // Let the transcript be written (it goes to the scrollback once).
  await sleep(200);
  return { app, term, port };
}

/** Types `keys` letters 20 ms apart; the latency of each is key -> its frame written. */
async function typeKeys(term: CountingTerminal, keys: number, gapMs = 20): Promise<{ latencies: number[]; bytesPerKey: number }> {
  const latencies: number[] = [];
  const before = term.bytes;
  for (let index = 0; index < keys; index++) {
    const written = term.nextWrite();
    const startedAt = performance.now();
    term.type(String.fromCharCode(97 + (index % 26)));
    await written;
    latencies.push(performance.now() - startedAt);
    await sleep(gapMs);
  }
  return { latencies, bytesPerKey: (term.bytes - before) / keys };
}

async function keystrokes(items: number): Promise<{ p50: number; p99: number; bytesPerKey: number }> {
  const { app, term } = await startApp(items);
  // Warm-up keys (JIT), then the measured ones on a line that is already 30 characters long.
  await typeKeys(term, 30, 5);
  const { latencies, bytesPerKey } = await typeKeys(term, 200);
  await app.exit(0);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), bytesPerKey };
}

async function idleCpu(): Promise<number> {
  const { app } = await startApp(100);
  await sleep(300);
  const start = process.cpuUsage();
  const startedAt = performance.now();
  await sleep(2000);
  const used = process.cpuUsage(start);
  const percent = ((used.user + used.system) / 1000 / (performance.now() - startedAt)) * 100;
  await app.exit(0);
  return percent;
}

/** 2,000 tokens/s (~4 characters a token) for 3 s while a key is typed every 30 ms. */
async function streamWhileTyping(): Promise<{ lost: number; p99: number }> {
  const { app, term, port } = await startApp(100);
  port.emit({ type: 'turn.started' });
  port.emit({ type: 'item.started', item: { id: 'stream', type: 'agent_message', text: '' } });
  let streaming = true;
  const words = 'the parser reads one token at a time and keeps a stack of the blocks that are open '.split(' ');
  const stream = (async () => {
    let count = 0;
    const startedAt = performance.now();
    while (streaming) {
      // Tokens due by now at 2,000/s.
      const due = Math.floor(((performance.now() - startedAt) / 1000) * 2000);
      let delta = '';
      for (; count < due; count++) delta += `${words[count % words.length]}${count % 40 === 39 ? '\n' : ' '}`;
      if (delta !== '') port.emit({ type: 'item.agent_message.delta', item_id: 'stream', delta });
      await sleep(2);
    }
  })();
  const typed: string[] = [];
  const latencies: number[] = [];
  const until = performance.now() + 3000;
  while (performance.now() < until) {
    const char = String.fromCharCode(97 + (typed.length % 26));
    typed.push(char);
    const written = term.nextWrite();
    const startedAt = performance.now();
    term.type(char);
    await written;
    latencies.push(performance.now() - startedAt);
    await sleep(30);
  }
  streaming = false;
  await stream;
  const received = app.composer.text;
  const expected = typed.join('');
  let lost = Math.abs(expected.length - received.length);
  for (let index = 0; index < Math.min(expected.length, received.length); index++) if (expected[index] !== received[index]) lost++;
  await app.exit(0);
  return { lost, p99: percentile(latencies, 0.99) };
}

/** `rig tui-demo` in a pty: spawn -> the first frame (the composer's placeholder) arrives. */
async function firstFrame(env: BenchEnv, runs: number): Promise<{ firstFrameMs: number; bareMs: number; sessionMs: number }> {
  // The real session (`rig` on the engine) against a provider it never calls before a message is sent.
  const home = env.mockHome('http://127.0.0.1:9/v1');
  const once = (args: string[], marker: string | undefined) =>
    new Promise<number>((resolve, reject) => {
      const startedAt = performance.now();
      const child = spawnPty(process.execPath, args, { cols: 100, rows: 30, cwd: env.repo, env: { ...process.env, ...env.childEnv(home), TERM: 'xterm-256color', NO_COLOR: '' } as Record<string, string> });
      let output = '';
      let done = false;
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`no first frame from ${args.join(' ')} in 10 s; output: ${JSON.stringify(output.slice(-500))}`));
      }, 10_000);
      const finish = () => {
        if (done) return;
        done = true;
        const elapsed = performance.now() - startedAt;
        clearTimeout(timer);
        child.kill();
        resolve(elapsed);
      };
      child.onData((data) => {
        output += data;
        if (marker && output.includes(marker)) finish();
      });
      child.onExit(() => {
        if (!marker) finish();
      });
    });
  await once([env.rigBin, 'tui-demo'], 'sk rig anything');
  await once([env.rigBin, '--harness', 'native'], 'sk rig anything');
  const frames: number[] = [];
  const bare: number[] = [];
  const sessions: number[] = [];
  for (let run = 0; run < runs; run++) {
    frames.push(await once([env.rigBin, 'tui-demo'], 'sk rig anything'));
    bare.push(await once(['-e', ''], undefined));
    sessions.push(await once([env.rigBin, '--harness', 'native'], 'sk rig anything'));
  }
  return { firstFrameMs: median(frames), bareMs: median(bare), sessionMs: median(sessions) };
}

export async function benchTui(env: BenchEnv, runs: number): Promise<Metric[]> {
  const { firstFrameMs, bareMs, sessionMs } = await firstFrame(env, runs);
  const small = await keystrokes(100);
  const large = await keystrokes(10_000);
  const idle = await idleCpu();
  const stream = await streamWhileTyping();
  return [
    { key: 'tui.first_frame_ms', label: '`rig tui-demo` spawn -> first frame (pty)', value: firstFrameMs, unit: 'ms', target: 150, note: `bare node in the same pty ${bareMs.toFixed(0)} ms` },
    { key: 'tui.first_frame_overhead_ms', label: 'first frame - bare node (pty)', value: firstFrameMs - bareMs, unit: 'ms' },
    { key: 'tui.session_first_frame_ms', label: '`rig` (engine session) spawn -> first frame (pty)', value: sessionMs, unit: 'ms', target: 150, note: `${(sessionMs - bareMs).toFixed(0)} ms over bare node; the engine loads after it` },
    { key: 'tui.key_p99_10k_ms', label: 'keystroke -> screen p99, 10,000-item transcript', value: large.p99, unit: 'ms', target: 16, note: `p50 ${large.p50.toFixed(2)} ms` },
    { key: 'tui.key_p99_100_ms', label: 'keystroke -> screen p99, 100-item transcript', value: small.p99, unit: 'ms', note: `p50 ${small.p50.toFixed(2)} ms (10k / 100 p50 ratio ${(large.p50 / small.p50).toFixed(2)})` },
    { key: 'tui.bytes_per_key', label: 'bytes written per keystroke (steady state)', value: large.bytesPerKey, unit: 'B', target: 200 },
    { key: 'tui.idle_cpu_percent', label: 'CPU while idle (no spinner), % of a core', value: idle, unit: '%', target: 1 },
    { key: 'tui.stream_keys_lost', label: 'keys lost while streaming 2,000 tokens/s', value: stream.lost, unit: '', target: 0 },
    // Frames are capped at 60/s, so a key typed during a stream waits for the next slot (<= 16.7 ms).
    { key: 'tui.stream_key_p99_ms', label: 'keystroke -> screen p99 while streaming 2,000 tokens/s', value: stream.p99, unit: 'ms', note: 'includes the wait for the next 60 fps slot' },
  ];
}
