// Resume (reopen a rollout and rebuild its state) and fork (a new thread seeded with another's
// history up to a turn), per reference/context-and-state.md §5.
import { readGitInfo } from './git-info.js';
import { newThreadId } from './ids.js';
import { reconstructThread, type ReconstructedThread } from './reconstruct.js';
import { readRollout } from './rollout-reader.js';
import type { RolloutRecord, SessionMeta } from './rollout-types.js';
import { RolloutWriter } from './rollout-writer.js';

export interface SessionMetaInput {
  cwd: string;
  cliVersion: string;
  model?: string;
  modelProvider?: string;
  harness?: string;
  /** cli, exec, app-server, mcp, subagent, ... */
  source?: string;
  baseInstructions?: string;
  forkedFromId?: string;
  parentThreadId?: string;
  /** Skip reading .git (tests, non-repo tools). */
  noGit?: boolean;
}

/** The meta for a new rollout, with git branch/commit/origin when cwd is in a repository. */
export function sessionMetaFor(input: SessionMetaInput): Omit<SessionMeta, 'id' | 'timestamp'> {
  const git = input.noGit ? undefined : readGitInfo(input.cwd);
  return {
    cwd: input.cwd,
    originator: 'rig',
    cli_version: input.cliVersion,
    ...(input.source !== undefined ? { source: input.source } : {}),
    ...(input.model !== undefined ? { model: input.model } : {}),
    ...(input.modelProvider !== undefined ? { model_provider: input.modelProvider } : {}),
    ...(input.harness !== undefined ? { harness: input.harness } : {}),
    ...(input.baseInstructions !== undefined ? { base_instructions: input.baseInstructions } : {}),
    ...(input.forkedFromId !== undefined ? { forked_from_id: input.forkedFromId } : {}),
    ...(input.parentThreadId !== undefined ? { parent_thread_id: input.parentThreadId } : {}),
    ...(git && Object.keys(git).length > 0 ? { git } : {}),
  };
}

export interface ResumedThread extends ReconstructedThread {
  threadId: string;
  writer: RolloutWriter;
  warnings: string[];
}

/** Rebuilds the thread from its rollout and reopens the file for appending. */
export function resumeRollout(options: { path: string; secrets?: readonly string[] }): ResumedThread {
  const read = readRollout(options.path);
  if (!read.meta) {
    throw new Error(`${options.path} has no session_meta line, so it cannot be resumed; start a new thread instead`);
  }
  const thread = reconstructThread(read.records);
  const writer = RolloutWriter.open({ path: options.path, ...(options.secrets ? { secrets: options.secrets } : {}) });
  return { ...thread, threadId: read.meta.id, writer, warnings: read.warnings };
}

export interface ForkOptions {
  home: string;
  sourcePath: string;
  /** Keep history through this turn (inclusive). */
  lastTurnId?: string;
  /** Keep history strictly before this turn. */
  beforeTurnId?: string;
  threadId?: string;
  cliVersion?: string;
  secrets?: readonly string[];
  now?: Date;
  /** Fields the fork's meta adds (a sub-agent's parent, path and role). */
  meta?: Partial<Omit<SessionMeta, 'id' | 'timestamp'>>;
}

function cutRecords(records: readonly RolloutRecord[], options: ForkOptions): RolloutRecord[] {
  const turnIndex = (id: string): number => {
    const i = records.findIndex((r) => r.type === 'turn_context' && r.payload.turn_id === id);
    if (i < 0) throw new Error(`turn ${id} is not in ${options.sourcePath}; cannot fork there`);
    return i;
  };
  if (options.beforeTurnId !== undefined) return records.slice(0, turnIndex(options.beforeTurnId));
  if (options.lastTurnId !== undefined) {
    const start = turnIndex(options.lastTurnId);
    const next = records.findIndex((r, i) => i > start && r.type === 'turn_context');
    return next < 0 ? [...records] : records.slice(0, next);
  }
  return [...records];
}

/**
 * Creates a new thread whose rollout starts with the source's history (as response items) and
 * newest turn context, with `forked_from_id` pointing at the source.
 */
export function forkRollout(options: ForkOptions): ResumedThread {
  const read = readRollout(options.sourcePath);
  if (!read.meta) throw new Error(`${options.sourcePath} has no session_meta line, so it cannot be forked`);
  // Copy the records that shape history (not usage or model responses): turn boundaries survive,
  // so rollback works on the fork as on the source.
  const kept = cutRecords(read.records, options).filter(
    (r) =>
      r.type === 'turn_context' ||
      r.type === 'response_item' ||
      r.type === 'compacted' ||
      (r.type === 'event_msg' && r.payload.type === 'thread_rolled_back'),
  );
  const thread = reconstructThread(kept);
  const threadId = options.threadId ?? newThreadId();
  const { id: sourceId, timestamp: _ignored, ...sourceMeta } = read.meta;
  const writer = RolloutWriter.create({
    home: options.home,
    threadId,
    meta: {
      ...sourceMeta,
      ...(options.cliVersion !== undefined ? { cli_version: options.cliVersion } : {}),
      forked_from_id: sourceId,
      ...options.meta,
    },
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  for (const record of kept) writer.append(record);
  return { ...thread, totalUsage: undefined, threadId, writer, warnings: read.warnings };
}
