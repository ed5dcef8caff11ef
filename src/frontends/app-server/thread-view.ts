// Threads and turns as the protocol reports them, from what rig knows of a thread: a loaded
// handle, a catalog row, a rollout read. Fields for features rig does not have are null.
import type { HistoryTurn, ThreadRead, ThreadSummary } from '../../core/engine.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import { rigVersion } from '../../core/version.js';
import type { ThreadSettingsView } from '../../protocol/index.js';
import type { AskForApproval, ResultOf, SandboxPolicy, Thread, ThreadStatus, Turn } from '../../protocol/app-server/index.js';
import { toProtocolItem, turnError } from './items.js';

export interface ThreadFacts {
  id: string;
  cwd: string;
  model: string | null;
  modelProvider: string;
  reasoningEffort: string | null;
  createdAtMs: number;
  updatedAtMs: number;
  preview: string;
  path: string | null;
  ephemeral: boolean;
  forkedFromId: string | null;
  gitInfo: { sha: string | null; branch: string | null } | null;
  name: string | null;
  status: ThreadStatus;
  /** Loaded by this server (source appServer) or found on disk. */
  loadedHere: boolean;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

export function toThread(facts: ThreadFacts, turns: Turn[] = []): Thread {
  return {
    id: facts.id,
    sessionId: facts.id,
    forkedFromId: facts.forkedFromId,
    parentThreadId: null,
    preview: facts.preview,
    ephemeral: facts.ephemeral,
    section: null,
    sectionEnteredAt: null,
    projectId: null,
    historyMode: 'legacy',
    modelProvider: facts.modelProvider,
    model: facts.model,
    reasoningEffort: facts.reasoningEffort,
    createdAt: seconds(facts.createdAtMs),
    updatedAt: seconds(facts.updatedAtMs),
    recencyAt: seconds(facts.updatedAtMs),
    status: facts.status,
    path: facts.path,
    cwd: facts.cwd,
    cliVersion: rigVersion(),
    originator: null,
    source: facts.loadedHere ? 'appServer' : 'unknown',
    threadSource: null,
    agentNickname: null,
    agentRole: null,
    gitInfo: facts.gitInfo ? { ...facts.gitInfo, originUrl: null } : null,
    name: facts.name,
    turns,
  };
}

/** Facts from a catalog row, overlaid with a loaded handle's live settings when there is one. */
export function factsFromRow(row: ThreadSummary, name: string | undefined, loaded: ThreadHandle | undefined, status: ThreadStatus): ThreadFacts {
  const settings = loaded?.settings;
  return {
    id: row.id,
    cwd: settings?.cwd ?? row.cwd,
    model: settings?.model ?? row.model,
    modelProvider: settings?.model_provider ?? row.modelProvider ?? 'unknown',
    reasoningEffort: settings?.reasoning_effort ?? null,
    createdAtMs: row.createdAt,
    updatedAtMs: row.updatedAt,
    preview: row.title,
    path: row.rolloutPath,
    ephemeral: false,
    forkedFromId: row.forkedFromId,
    gitInfo: row.gitBranch || row.gitSha ? { sha: row.gitSha, branch: row.gitBranch } : null,
    name: name ?? null,
    status,
    loadedHere: loaded !== undefined,
  };
}

/** Facts of a loaded thread that may have no catalog row yet (new, or ephemeral). */
export function factsFromHandle(handle: ThreadHandle, extra: { createdAtMs: number; preview: string; name?: string; status: ThreadStatus }): ThreadFacts {
  const settings = handle.settings;
  return {
    id: handle.id,
    cwd: settings.cwd,
    model: settings.model,
    modelProvider: settings.model_provider,
    reasoningEffort: settings.reasoning_effort ?? null,
    createdAtMs: extra.createdAtMs,
    updatedAtMs: Date.now(),
    preview: extra.preview,
    path: handle.info.rolloutPath ?? null,
    ephemeral: handle.info.rolloutPath === undefined,
    forkedFromId: handle.info.forkedFrom ?? null,
    gitInfo: null,
    name: extra.name ?? null,
    status: extra.status,
    loadedHere: true,
  };
}

/** Facts of a stored thread nobody loaded, from its rollout (when the catalog has no row). */
export function factsFromRead(read: ThreadRead, name: string | undefined, modifiedMs: number): ThreadFacts {
  return {
    id: read.id,
    cwd: read.cwd ?? '',
    model: read.model ?? null,
    modelProvider: read.modelProvider ?? 'unknown',
    reasoningEffort: null,
    createdAtMs: modifiedMs,
    updatedAtMs: modifiedMs,
    preview: firstPrompt(read.turns ?? []),
    path: read.rolloutPath ?? null,
    ephemeral: read.rolloutPath === undefined,
    forkedFromId: read.forkedFrom ?? null,
    gitInfo: null,
    name: name ?? null,
    status: { type: 'notLoaded' },
    loadedHere: false,
  };
}

export function firstPrompt(turns: readonly HistoryTurn[]): string {
  for (const turn of turns) {
    for (const item of turn.items) if (item.type === 'user_message') return item.text;
  }
  return '';
}

/** Stored turns as protocol turns (every item, completed). Turn ids come from the rollout. */
export function historyTurns(turns: readonly HistoryTurn[], cwd: string): Turn[] {
  return turns.map((turn, index) => {
    const id = turn.id ?? `turn_${index}`;
    return {
      id,
      rootTurnId: id,
      items: turn.items.flatMap((item) => {
        const mapped = toProtocolItem(item, { cwd });
        return mapped ? [mapped] : [];
      }),
      itemsView: 'full',
      status: turn.status === 'in_progress' ? 'interrupted' : turn.status,
      error: turn.error ? turnError(turn.error) : null,
      startedAt: null,
      completedAt: null,
      durationMs: null,
    };
  });
}

/** A live turn in a notification or response (its items are streamed separately). */
export function liveTurn(id: string, status: Turn['status'], times: { startedAtMs: number; completedAtMs?: number }, error?: string): Turn {
  return {
    id,
    rootTurnId: id,
    items: [],
    itemsView: 'notLoaded',
    status,
    error: error === undefined ? null : turnError(error),
    startedAt: seconds(times.startedAtMs),
    completedAt: times.completedAtMs === undefined ? null : seconds(times.completedAtMs),
    durationMs: times.completedAtMs === undefined ? null : times.completedAtMs - times.startedAtMs,
  };
}

/**
 * rig's approval policy in the protocol's words. `on-failure` (which Codex has retired) asks when
 * the sandbox blocks a command — the nearest of the protocol's values is `on-request`.
 */
export function protocolApproval(settings: ThreadSettingsView): AskForApproval {
  switch (settings.approval_policy) {
    case 'untrusted':
    case 'never':
    case 'on-request':
      return settings.approval_policy;
    case 'on-failure':
      return 'on-request';
    case 'granular':
      return { granular: { sandbox_approval: true, rules: true, skill_approval: false, request_permissions: false, mcp_elicitations: true } };
  }
}

export function protocolSandbox(settings: ThreadSettingsView): SandboxPolicy {
  switch (settings.sandbox_mode) {
    case 'read-only':
      return { type: 'readOnly', networkAccess: false };
    case 'workspace-write':
      return { type: 'workspaceWrite', writableRoots: [settings.cwd], networkAccess: false, excludeTmpdirEnvVar: false, excludeSlashTmp: false };
    case 'danger-full-access':
      return { type: 'dangerFullAccess' };
  }
}

/** The settings part of thread/start, resume and fork responses. */
export function loadResult(handle: ThreadHandle, thread: Thread): ResultOf<'thread/start'> {
  const settings = handle.settings;
  return {
    thread,
    model: settings.model,
    modelProvider: settings.model_provider,
    serviceTier: null,
    disabledPluginIds: [],
    cwd: settings.cwd,
    instructionSources: [],
    approvalPolicy: protocolApproval(settings),
    approvalsReviewer: 'user',
    sandbox: protocolSandbox(settings),
    reasoningEffort: settings.reasoning_effort ?? null,
  };
}
