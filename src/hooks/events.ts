// The hook events rig knows: Codex's twelve, which it fires, and Claude Code's others, which a
// copied settings file may name and which rig never fires (they load with a warning, so a Claude
// Code file works unchanged). Per event: whether a matcher applies and what it is matched against,
// the snake_case label of Codex's trust keys, the scope of its runs, and its default timeout.

import { HOOK_EVENT_KEYS } from '../config/index.js';

/** The config's `[hooks]` table takes exactly these keys. */
export const HOOK_EVENTS = HOOK_EVENT_KEYS;

export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Claude Code events with no counterpart in rig's engine: accepted, never fired. */
export const FOREIGN_HOOK_EVENTS: readonly string[] = [
  'Notification',
  'PostToolUseFailure',
  'PermissionDenied',
  'StopFailure',
  'Setup',
  'CwdChanged',
  'FileChanged',
  'TaskCreated',
  'TaskCompleted',
  'TeammateIdle',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'Elicitation',
  'ElicitationResult',
  'UserPromptExpansion',
];

export function isHookEvent(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/**
 * What a group's `matcher` is compared with, per event; events missing here ignore their matcher
 * (Codex ignores it for UserPromptSubmit, Stop and Interrupt, and so does Claude Code).
 */
export const MATCHER_INPUT: Partial<Record<HookEventName, string>> = {
  PreToolUse: 'tool name',
  PermissionRequest: 'tool name',
  PostToolUse: 'tool name',
  SessionStart: 'source (startup, resume, clear, compact)',
  SessionEnd: 'reason',
  SubagentStart: 'agent type',
  SubagentStop: 'agent type',
  PreCompact: 'trigger (manual, auto)',
  PostCompact: 'trigger (manual, auto)',
};

export function eventUsesMatcher(event: HookEventName): boolean {
  return MATCHER_INPUT[event] !== undefined;
}

/** Codex's label in trust keys: `<source>:pre_tool_use:0:0`. */
export function eventKeyLabel(event: HookEventName): string {
  return event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

/** app-server's eventName: `preToolUse`. */
export function eventWireName(event: HookEventName): string {
  return event[0]!.toLowerCase() + event.slice(1);
}

/** Runs of session-level events belong to the thread; the rest to a turn. */
export function eventScope(event: HookEventName): 'thread' | 'turn' {
  return event === 'SessionStart' || event === 'SubagentStart' || event === 'SessionEnd' ? 'thread' : 'turn';
}

export const DEFAULT_HOOK_TIMEOUT_SEC = 600;
/** A session ending must not hang on its hooks: Codex's default and ceiling for SessionEnd. */
export const SESSION_END_DEFAULT_TIMEOUT_SEC = 1;
export const SESSION_END_MAX_TIMEOUT_SEC = 3;
/** Fire-and-forget handlers running at once (Codex's bound). */
export const MAX_ASYNC_HOOKS = 8;

export function effectiveTimeoutSec(event: HookEventName, configured: number | undefined): number {
  if (event === 'SessionEnd') {
    return Math.min(Math.max(1, configured ?? SESSION_END_DEFAULT_TIMEOUT_SEC), SESSION_END_MAX_TIMEOUT_SEC);
  }
  return Math.max(1, configured ?? DEFAULT_HOOK_TIMEOUT_SEC);
}
