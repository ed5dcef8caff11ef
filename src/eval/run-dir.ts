// The run folder: run.json (what was asked: the full trial list, so a resume or a replay does not
// depend on the task files staying as they were), results.jsonl, summary.json, report.html, and
// trials/<key>/ with each trial's rollout and the agent's diff.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TrialSpec } from './matrix.js';
import { ResultsFile } from './results.js';
import type { RunnerKind } from './runner/types.js';

export interface RunManifest {
  v: 1;
  id: string;
  created_at: string;
  rig_version: string;
  tasks_path: string;
  harnesses: string[];
  models: string[];
  provider: string;
  trials: number;
  parallel: number;
  /** The runner the run started with (workers of a queued run use it too, unless told otherwise). */
  runner: RunnerKind;
  queue?: { url: string; name: string };
  /** For a replay run: the run folder whose trials it re-runs. */
  replay_of?: string;
  specs: TrialSpec[];
}

export class RunDir {
  readonly results: ResultsFile;

  constructor(readonly dir: string) {
    this.results = new ResultsFile(join(dir, 'results.jsonl'));
  }

  get manifestPath(): string {
    return join(this.dir, 'run.json');
  }

  trialDir(key: string): string {
    return join(this.dir, 'trials', key);
  }

  /** Temp root of this run's workspaces (same path on every resume, so leftovers can be cleared). */
  workRoot(runId: string): string {
    return join(tmpdir(), 'rig-eval', runId);
  }

  static create(dir: string, manifest: RunManifest): RunDir {
    const run = new RunDir(resolve(dir));
    if (existsSync(run.manifestPath)) {
      throw new Error(`${run.dir} already holds a run (run.json); continue it with \`rig eval --resume ${dir}\` or choose another --out folder`);
    }
    mkdirSync(run.dir, { recursive: true });
    run.writeJson('run.json', manifest);
    return run;
  }

  static open(dir: string): { run: RunDir; manifest: RunManifest } {
    const run = new RunDir(resolve(dir));
    if (!existsSync(run.manifestPath)) {
      throw new Error(`${run.dir} is not a rig eval run folder (no run.json); pass the folder \`rig eval\` printed at the start of the run`);
    }
    let manifest: RunManifest;
    try {
      manifest = JSON.parse(readFileSync(run.manifestPath, 'utf8')) as RunManifest;
    } catch (error) {
      throw new Error(`${run.manifestPath} is not valid JSON (${(error as Error).message})`);
    }
    if (manifest.v !== 1 || !Array.isArray(manifest.specs)) throw new Error(`${run.manifestPath} is not a run.json this rig understands (v ${String(manifest.v)})`);
    return { run, manifest };
  }

  /** Written to a temp file and renamed, so a reader never sees half a file. */
  writeJson(name: string, value: unknown): void {
    this.writeText(name, `${JSON.stringify(value, null, 2)}\n`);
  }

  writeText(name: string, text: string): void {
    const target = join(this.dir, name);
    const temp = `${target}.${process.pid}.tmp`;
    writeFileSync(temp, text);
    renameSync(temp, target);
  }
}

export function newRunId(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
