// Searching with an rg child process. The arguments are fixed by rig: no config file (--no-config,
// RIPGREP_CONFIG_PATH dropped), no preprocessor or decompression, the model's pattern and globs
// only as `--opt=value` words and the path after `--`. The process is killed on abort, timeout or
// when the result cap is reached. Output is parsed chunk by chunk, so the event loop stays free.
import { spawn } from 'node:child_process';
import { basename, dirname } from 'node:path';
import { statSync } from 'node:fs';
import {
  DEFAULT_SEARCH_TIMEOUT_MS,
  type FileHits,
  type GrepNeed,
  type GrepQuery,
  type GrepResult,
  type ListQuery,
  MAX_RESULT_LINES,
  MAX_SEARCH_FILE_BYTES,
  SKIPPED_DIR_NAMES,
  SearchError,
  type SearchOptions,
  timeoutError,
} from './types.js';

/** Parsing rg's output gives the event loop a turn at least this often. */
const YIELD_AFTER_MS = 8;

/** rg's file filtering shared by listing and content search. */
function filterArgs(includeIgnored: boolean): string[] {
  const args = ['--no-config', '--no-messages', '--hidden', '--no-ignore-global', '--color=never'];
  if (includeIgnored) args.push('--no-ignore');
  return args;
}

/** Skipped directories go last: a later `--glob` wins over an earlier one in rg. */
function skipArgs(includeIgnored: boolean): string[] {
  return includeIgnored ? [] : SKIPPED_DIR_NAMES.map((name) => `--glob=!${name}`);
}

const SAFE_EXTENSION = /^[A-Za-z0-9_+-]+$/;

export function grepArgs(query: GrepQuery, need: GrepNeed, stats: boolean): string[] | undefined {
  const args = [...filterArgs(query.includeIgnored), `--max-filesize=${MAX_SEARCH_FILE_BYTES}`, '--engine=auto', '--null'];
  if (query.ignoreCase) args.push('--ignore-case');
  if (query.multiline) args.push('--multiline', '--multiline-dotall');
  if (need === 'files') args.push('--files-with-matches');
  else if (need === 'counts') args.push('--count-matches');
  else args.push('--line-number', '--no-heading', '--with-filename', `--before-context=${query.before}`, `--after-context=${query.after}`);
  if (stats) args.push('--stats');
  if (query.extensions) {
    // An extension that is not a plain word cannot name a file rg would match; say so by not searching.
    if (!query.extensions.every((ext) => SAFE_EXTENSION.test(ext))) return undefined;
    for (const ext of query.extensions) args.push(`--type-add=rigsel:*.${ext}`);
    args.push('--type=rigsel');
  }
  for (const glob of query.globs) args.push(`--glob=${glob}`);
  for (const glob of query.excludes) args.push(`--glob=!${glob.replace(/^!/, '')}`);
  args.push(...skipArgs(query.includeIgnored));
  args.push(`--regexp=${query.pattern}`);
  return args;
}

export function listArgs(query: ListQuery): string[] {
  return [...filterArgs(query.includeIgnored), '--files', '--null', ...skipArgs(query.includeIgnored)];
}

interface RunResult {
  code: number | null;
  stderr: string;
  stopped: boolean;
}

/**
 * Runs rg in `cwd` on `target` and feeds complete records (split on `separator`) to `onRecord`,
 * which returns false to stop the search early.
 */
function runRipgrep(
  rg: string,
  args: string[],
  cwd: string,
  target: string,
  separator: '\n' | '\0',
  onRecord: (record: string) => boolean,
  options: SearchOptions,
  onTail: (rest: string) => void = (rest) => void onRecord(rest),
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new SearchError('aborted', 'Search interrupted'));
    const env = { ...process.env };
    delete env['RIPGREP_CONFIG_PATH'];
    const child = spawn(rg, [...args, '--', target], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stopped = false;
    let failure: SearchError | undefined;
    const stop = (reason?: SearchError): void => {
      if (reason) failure ??= reason;
      stopped = true;
      child.kill('SIGKILL');
    };
    const timeoutMs = options.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
    const timer = setTimeout(() => stop(timeoutError(timeoutMs)), timeoutMs);
    const onAbort = (): void => stop(new SearchError('aborted', 'Search interrupted'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let pending = '';
    // libuv hands over up to 32 reads (2 MB of rg output) in one go: past a few milliseconds of
    // parsing, reading pauses until the event loop has had a turn (rg waits on the full pipe).
    let slice = performance.now();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      const text = pending + chunk;
      let start = 0;
      for (let end = text.indexOf(separator); end !== -1; end = text.indexOf(separator, start)) {
        const record = text.slice(start, end);
        start = end + 1;
        if (!onRecord(record)) {
          stop();
          return;
        }
      }
      pending = text.slice(start);
      if (performance.now() - slice > YIELD_AFTER_MS) {
        child.stdout.pause();
        setImmediate(() => {
          slice = performance.now();
          child.stdout.resume();
        });
      }
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 16_384) stderr += chunk;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(new SearchError('failed', `could not run ${rg}: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      if (!stopped && pending !== '') onTail(pending);
      resolve({ code, stderr, stopped });
    });
  });
}

/** Where to run rg so that its output paths are relative to a directory, and which path to pass. */
function placement(root: string): { cwd: string; target: string; prefix: string } {
  if (statSync(root).isFile()) return { cwd: dirname(root), target: basename(root), prefix: dirname(root) };
  return { cwd: root, target: '.', prefix: root };
}

function absolute(prefix: string, rel: string): string {
  // rg prints normalised paths: plain concatenation is enough (path.join costs ~1 µs a path).
  const clean = rel.startsWith('./') ? rel.slice(2) : rel;
  return prefix === '/' ? `/${clean}` : `${prefix}/${clean}`;
}

function failed(rg: string, result: RunResult): SearchError | undefined {
  if (result.code !== 2 || result.stopped) return undefined;
  const message = result.stderr.trim().replace(/^rg: /, '');
  if (/regex|parse error|unclosed|unopened|repetition|escape|look-?around|backreference|PCRE2/i.test(message)) {
    return new SearchError('pattern', message);
  }
  return message === '' ? undefined : new SearchError('failed', `${rg} failed: ${message}`);
}

/** Absolute paths of the files rg would search under root (unsorted). */
export async function ripgrepList(rg: string, query: ListQuery, options: SearchOptions = {}): Promise<{ paths: string[]; truncated: boolean }> {
  const paths: string[] = [];
  let truncated = false;
  const { cwd, target, prefix } = placement(query.root);
  const result = await runRipgrep(
    rg,
    listArgs(query),
    cwd,
    target,
    '\0',
    (record) => {
      if (record === '') return true;
      paths.push(absolute(prefix, record));
      if (paths.length >= MAX_RESULT_LINES * 5) {
        truncated = true;
        return false;
      }
      return true;
    },
    options,
  );
  const error = failed(rg, result);
  if (error) throw error;
  return { paths, truncated };
}

const STATS_SEARCHED = /^(\d+) files searched$/;

export async function ripgrepGrep(rg: string, query: GrepQuery, need: GrepNeed, options: SearchOptions & { stats?: boolean } = {}): Promise<GrepResult> {
  const args = grepArgs(query, need, options.stats === true);
  if (!args) return { files: [], searched: 0, truncated: false };
  const { cwd, target, prefix } = placement(query.root);
  const byPath = new Map<string, FileHits>();
  let searched = 0;
  let records = 0;
  let truncated = false;
  const fileFor = (rel: string): FileHits => {
    let file = byPath.get(rel);
    if (!file) {
      file = { path: absolute(prefix, rel), matches: 0, lines: [] };
      byPath.set(rel, file);
    }
    return file;
  };
  const onRecord = (record: string): boolean => {
    if (need === 'files') {
      if (record !== '') fileFor(record);
      return true;
    }
    const nul = record.indexOf('\0');
    if (nul === -1) {
      const stat = STATS_SEARCHED.exec(record);
      if (stat) searched = Number(stat[1]);
      return true;
    }
    const file = fileFor(record.slice(0, nul));
    const rest = record.slice(nul + 1);
    if (need === 'counts') {
      file.matches = Number(rest);
      return true;
    }
    const digits = /^(\d+)([:-])/.exec(rest);
    if (!digits) return true;
    const match = digits[2] === ':';
    const text = rest.slice(digits[0].length);
    file.lines.push({ line: Number(digits[1]), text: text.endsWith('\r') ? text.slice(0, -1) : text, match });
    if (match) file.matches++;
    if (++records >= MAX_RESULT_LINES) {
      truncated = true;
      return false;
    }
    return true;
  };
  // -l output is NUL-separated; everything else is line-separated with NUL after the path.
  // -l ends each path with NUL and no newline, so the --stats block is the unterminated tail.
  const onStats = (tail: string): void => {
    for (const line of tail.split('\n')) {
      const stat = STATS_SEARCHED.exec(line);
      if (stat) searched = Number(stat[1]);
    }
  };
  const result = await runRipgrep(rg, args, cwd, target, need === 'files' ? '\0' : '\n', onRecord, options, need === 'files' ? onStats : undefined);
  const error = failed(rg, result);
  if (error) throw error;
  const files = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (!options.stats) searched = files.length;
  return { files, searched, truncated };
}
