// Where a loaded thread's history and rollout come from: a fork copies the source's records up to
// a turn into a rollout of its own, a resume reopens the thread's rollout (taking its lock), a
// seeded start records the copied items as one replacement, a new thread gets a fresh rollout with
// its meta line. An ephemeral thread writes nothing.
import type { ConversationItem, ThreadGoal } from '../protocol/index.js';
import type { RigConfig } from '../config/index.js';
import { RolloutRecorder, RolloutWriter, forkRollout, reconstructThread } from '../store/index.js';
import type { AgentLink } from './agents/tree.js';
import type { ThreadSeed, ThreadStartRequest } from './engine.js';
import { nextTurnNumber, type ResumedThread } from './session-resume.js';
import { gitMeta, initialContext, recordsThrough } from './thread-load.js';
import type { BuiltRuntime } from './thread-runtime.js';
import { rigVersion } from './version.js';

export interface OpenedRollout {
  recorder?: RolloutRecorder;
  /** The history the thread continues from (none for a new thread: it starts with its context). */
  history?: ConversationItem[];
  /** The goal as of the turn a resume or fork continues from (the rollout is its truth). */
  goal?: ThreadGoal;
  firstTurn: number;
}

export interface RolloutOpening {
  request: ThreadStartRequest;
  source: { kind: 'resume' | 'fork'; resumed: ResumedThread; atTurn?: string } | undefined;
  home: string;
  threadId: string;
  /** Redacted from every record written. */
  secrets: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  config: RigConfig;
  built: BuiltRuntime;
  /** The engine's source (exec, cli, app-server, ...), recorded in a new thread's meta. */
  engineSource?: string;
}

export function openThreadRollout(opening: RolloutOpening): OpenedRollout {
  const { request, source, home, threadId, secrets, env, cwd, config, built, engineSource } = opening;
  const resumed = source?.resumed;
  if (source?.kind === 'fork') {
    const kept = recordsThrough(resumed!.records, source.atTurn, resumed!.path);
    const rebuilt = reconstructThread(kept);
    const opened: OpenedRollout = { history: rebuilt.history, ...(rebuilt.goal ? { goal: rebuilt.goal } : {}), firstTurn: nextTurnNumber(kept) };
    // An ephemeral fork (e.g. printing what a fork would copy) must not create a thread on disk.
    if (request.ephemeral) return opened;
    const forked = forkRollout({
      home,
      sourcePath: resumed!.path,
      threadId,
      cliVersion: rigVersion(),
      secrets,
      ...(source.atTurn ? { lastTurnId: source.atTurn } : {}),
      ...(request.agent ? { meta: agentMeta(request.agent) } : {}),
    });
    return { ...opened, recorder: new RolloutRecorder(forked.writer, seededHistory(rebuilt)) };
  }
  if (resumed) {
    const opened: OpenedRollout = { history: resumed.history, ...(resumed.goal ? { goal: resumed.goal } : {}), firstTurn: resumed.nextTurn };
    if (request.ephemeral) return opened;
    // Opening takes the thread's lock: a second writer is refused, naming the one that holds it.
    return { ...opened, recorder: new RolloutRecorder(RolloutWriter.open({ path: resumed.path, secrets }), seededHistory(resumed)) };
  }
  if (request.seed) {
    const seed = request.seed;
    const seeded = seedThread(seed, initialContext(config, cwd, home, env, built), () =>
      request.ephemeral ? undefined : RolloutWriter.create({ home, threadId, secrets, meta: newThreadMeta(request, env, cwd, built, engineSource, { forked_from_id: seed.forkedFrom }) }),
    );
    return { history: seeded.history, ...(seeded.recorder ? { recorder: seeded.recorder } : {}), firstTurn: 0 };
  }
  if (request.ephemeral) return { firstTurn: 0 };
  return { recorder: new RolloutRecorder(RolloutWriter.create({ home, threadId, secrets, meta: newThreadMeta(request, env, cwd, built, engineSource) })), firstTurn: 0 };
}

/** A new thread's meta line. */
function newThreadMeta(request: ThreadStartRequest, env: NodeJS.ProcessEnv, cwd: string, built: BuiltRuntime, source: string | undefined, extra: { forked_from_id?: string } = {}) {
  return {
    cwd,
    originator: request.originator ?? env['CODEX_INTERNAL_ORIGINATOR_OVERRIDE'] ?? 'rig',
    cli_version: rigVersion(),
    source: request.agent ? 'subagent' : source ?? 'cli',
    ...extra,
    ...(request.agent ? agentMeta(request.agent) : {}),
    model: built.model,
    model_provider: built.provider.id,
    harness: built.harness.profile.id,
    ...gitMeta(cwd),
  };
}

/**
 * A thread opening with copied history: its own context first, then the copied items, recorded
 * as one replacement record so a resume rebuilds the same history and later compaction records
 * index into it.
 */
function seedThread(seed: ThreadSeed, context: ConversationItem[], create: () => RolloutWriter | undefined): { history: ConversationItem[]; recorder?: RolloutRecorder } {
  const history = [...context, ...seed.items];
  const writer = create();
  if (!writer) return { history };
  writer.append({ type: 'compacted', payload: { message: seed.note, replacement_history: history } });
  return { history, recorder: new RolloutRecorder(writer, { history }) };
}

/** What a sub-agent's rollout records about it (Codex's session_meta fields). */
function agentMeta(link: AgentLink) {
  return {
    source: 'subagent',
    parent_thread_id: link.parentThreadId,
    agent_path: link.path,
    agent_nickname: link.nickname,
    ...(link.role ? { agent_role: link.role } : {}),
  };
}

/**
 * The history a reader of the rollout rebuilds, so compaction records can refer to its items by
 * index. Not when loading repaired the history: the repaired items are not in the file, and
 * indices into it would point at the wrong ones (kept items are then written out in full).
 */
function seededHistory(rebuilt: { history: ConversationItem[]; repairs: string[] }): { history?: ConversationItem[] } {
  return rebuilt.repairs.length === 0 ? { history: rebuilt.history } : {};
}
