// Hook runs as the event stream carries them: `hook/started` before a handler runs and
// `hook/completed` after, with Codex's app-server HookRunSummary (camelCase). The envelope says
// which thread and turn the run belongs to (turn null for SessionStart and SessionEnd).

export type HookSource = 'user' | 'project' | 'session';
export type HookRunStatus = 'running' | 'completed' | 'failed' | 'blocked' | 'stopped';
export type HookEntryKind = 'warning' | 'stop' | 'feedback' | 'context' | 'error';

export interface HookOutputEntry {
  kind: HookEntryKind;
  text: string;
}

/** Codex's HookRunSummary, as the app server sends it. */
export interface HookRunSummary {
  id: string;
  /** The event, camelCase (`preToolUse`). */
  eventName: string;
  handlerType: 'command';
  executionMode: 'sync' | 'async';
  scope: 'thread' | 'turn';
  sourcePath: string;
  source: HookSource;
  displayOrder: number;
  status: HookRunStatus;
  statusMessage?: string;
  /** Unix seconds. */
  startedAt: number;
  completedAt?: number;
  durationMs?: number;
  entries: HookOutputEntry[];
}

export interface HookStartedEvent {
  type: 'hook/started';
  run: HookRunSummary;
}

export interface HookCompletedEvent {
  type: 'hook/completed';
  run: HookRunSummary;
}
