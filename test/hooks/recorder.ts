// A hook program for CLI tests: every run appends {event, input} (its stdin, parsed) to log.jsonl
// in its folder and answers with what answers/<Event> says (stdout, stderr, exit code);
// answers/<Event>.once is used by the next run only.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PROGRAM = `import fs from 'node:fs';
import path from 'node:path';
const event = process.argv[2];
const dir = path.dirname(new URL(import.meta.url).pathname);
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
fs.appendFileSync(path.join(dir, 'log.jsonl'), JSON.stringify({ event, input }) + '\\n');
const once = path.join(dir, 'answers', event + '.once');
const always = path.join(dir, 'answers', event);
const file = fs.existsSync(once) ? once : fs.existsSync(always) ? always : undefined;
if (file) {
  const answer = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (file === once) fs.rmSync(once);
  if (answer.stderr) process.stderr.write(answer.stderr);
  if (answer.stdout !== undefined) process.stdout.write(typeof answer.stdout === 'string' ? answer.stdout : JSON.stringify(answer.stdout));
  process.exitCode = answer.exit ?? 0;
}
`;

export interface HookAnswer {
  stdout?: unknown;
  stderr?: string;
  exit?: number;
}

export interface RecordedRun {
  event: string;
  input: Record<string, unknown>;
}

export class HookRecorder {
  constructor(readonly dir: string) {
    mkdirSync(join(dir, 'answers'), { recursive: true });
    writeFileSync(join(dir, 'rec.mjs'), PROGRAM);
  }

  /** The shell command a hooks file names for `event`. */
  command(event: string): string {
    return `${JSON.stringify(process.execPath)} ${JSON.stringify(join(this.dir, 'rec.mjs'))} ${event}`;
  }

  answer(event: string, answer: HookAnswer, options: { once?: boolean } = {}): void {
    writeFileSync(join(this.dir, 'answers', options.once ? `${event}.once` : event), JSON.stringify(answer));
  }

  runs(): RecordedRun[] {
    const file = join(this.dir, 'log.jsonl');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as RecordedRun);
  }

  of(event: string): Record<string, unknown>[] {
    return this.runs().filter((r) => r.event === event).map((r) => r.input);
  }

  /** A Claude Code hooks.json: {"hooks": {Event: [{matcher, hooks: [{type, command}]}]}}. */
  hooksJson(events: { event: string; matcher?: string }[]): string {
    const hooks: Record<string, unknown[]> = {};
    for (const { event, matcher } of events) {
      (hooks[event] ??= []).push({ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command: this.command(event) }] });
    }
    return JSON.stringify({ hooks }, null, 2);
  }
}
