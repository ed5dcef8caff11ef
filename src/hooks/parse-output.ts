// What one handler's run means for its event, following Codex's parsers (codex-rs/hooks) where
// Codex and Claude Code agree, and Claude Code's documented semantics where Codex refuses a field
// Claude Code honours (`permissionDecision: "allow"` or `"ask"`, `updatedInput` on a permission
// answer, `continue: false` from any event): a hooks file written for Claude Code works unchanged.
//
//   exit 0, no output          nothing
//   exit 0, a JSON object      parsed per event (below)
//   exit 0, other text         context for SessionStart, SubagentStart, UserPromptSubmit; a failure
//                              for Stop, SubagentStop, Interrupt; otherwise ignored (a failure when
//                              it looks like broken JSON)
//   exit 2                     blocks with stderr as the reason (per event; a generic one without stderr)
//   anything else / timeout    a failure that blocks nothing
import type { HookEventName } from './events.js';
import type { CommandRunResult } from './run-command.js';
import type { HookOutputEntry, HookRunStatus, PermissionVerdict } from './types.js';

export interface HandlerResult {
  status: HookRunStatus;
  entries: HookOutputEntry[];
  block?: string;
  stop: boolean;
  stopReason?: string;
  contexts: string[];
  updatedInput?: unknown;
  permissionDecision?: 'allow' | 'ask' | 'deny';
  permission?: PermissionVerdict;
  feedback: string[];
  continuation?: string;
  systemMessage?: string;
}

type Json = Record<string, unknown>;

const TEXT_AS_CONTEXT = new Set<HookEventName>(['SessionStart', 'SubagentStart', 'UserPromptSubmit']);
const JSON_REQUIRED = new Set<HookEventName>(['Stop', 'SubagentStop', 'Interrupt']);
const EXIT_TWO_BLOCKS = new Set<HookEventName>([
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
]);

function trimmed(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const t = text.trim();
  return t === '' ? undefined : t;
}

function looksLikeJson(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

function parseObject(text: string): Json | undefined {
  try {
    const value = JSON.parse(text.trim()) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

function fresh(): HandlerResult {
  return { status: 'completed', entries: [], stop: false, contexts: [], feedback: [] };
}

function fail(result: HandlerResult, text: string): HandlerResult {
  result.status = 'failed';
  result.entries.push({ kind: 'error', text });
  return result;
}

const eventLabel = (event: HookEventName) => event.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

export function parseHandlerRun(event: HookEventName, run: CommandRunResult): HandlerResult {
  const result = fresh();
  if (run.error !== undefined) return fail(result, run.error);
  if (run.exitCode === undefined) return fail(result, 'hook exited without a status code');
  if (run.exitCode === 2 && EXIT_TWO_BLOCKS.has(event)) return exitTwo(event, run, result);
  if (run.exitCode !== 0) {
    const detail = event === 'PreCompact' || event === 'PostCompact' ? trimmed(run.stderr) : undefined;
    return fail(result, detail ?? `hook exited with code ${run.exitCode}`);
  }
  const stdout = run.stdout.trim();
  if (stdout === '') return result;
  const json = parseObject(stdout);
  if (json === undefined) {
    if (looksLikeJson(stdout)) return fail(result, `hook returned invalid ${eventLabel(event)} JSON output`);
    if (JSON_REQUIRED.has(event)) return fail(result, `${event} hook returned non-JSON stdout`);
    if (TEXT_AS_CONTEXT.has(event)) {
      result.contexts.push(stdout);
      result.entries.push({ kind: 'context', text: stdout });
    }
    return result;
  }
  return parseJson(event, json, result);
}

function exitTwo(event: HookEventName, run: CommandRunResult, result: HandlerResult): HandlerResult {
  // Codex refuses an exit 2 without a reason; Claude Code blocks anyway (its own file-protection
  // example exits 2 silently), so a Claude Code hooks file keeps protecting what it protects.
  const reason = trimmed(run.stderr) ?? `${event} hook exited with code 2 (blocked; it wrote no reason to stderr)`;
  result.entries.push({ kind: 'feedback', text: reason });
  switch (event) {
    case 'PreToolUse':
      result.status = 'blocked';
      result.block = reason;
      result.permissionDecision = 'deny';
      break;
    case 'UserPromptSubmit':
      result.status = 'blocked';
      result.block = reason;
      break;
    case 'PermissionRequest':
      result.status = 'blocked';
      result.permission = { behavior: 'deny', message: reason };
      break;
    case 'PostToolUse':
      result.feedback.push(reason);
      break;
    default:
      result.status = 'blocked';
      result.continuation = reason;
  }
  return result;
}

function parseJson(event: HookEventName, json: Json, result: HandlerResult): HandlerResult {
  const systemMessage = trimmed(json['systemMessage']);
  if (systemMessage !== undefined) {
    result.systemMessage = systemMessage;
    result.entries.push({ kind: 'warning', text: systemMessage });
  }
  const specific = (json['hookSpecificOutput'] ?? undefined) as Json | undefined;
  if (specific !== undefined && (typeof specific !== 'object' || specific === null || Array.isArray(specific))) {
    return fail(result, 'hookSpecificOutput must be an object');
  }
  if (specific?.['hookEventName'] !== undefined && specific['hookEventName'] !== event) {
    return fail(result, `hookSpecificOutput.hookEventName is ${JSON.stringify(specific['hookEventName'])} in a ${event} hook`);
  }
  if (event === 'Interrupt' || event === 'SessionEnd') {
    const extra = Object.keys(json).filter((k) => k !== 'systemMessage');
    return extra.length > 0 ? fail(result, `hook returned invalid ${eventLabel(event)} JSON output (only systemMessage applies)`) : result;
  }
  const context = trimmed(specific?.['additionalContext']);
  const decision = json['decision'];
  const reason = trimmed(json['reason']);
  if (decision === 'block' && reason === undefined && event !== 'PreToolUse') {
    return fail(result, `${event} hook returned decision:block without a non-empty reason`);
  }
  if (context !== undefined) {
    result.contexts.push(context);
    result.entries.push({ kind: 'context', text: context });
  }
  if (json['continue'] === false) {
    result.status = 'stopped';
    result.stop = true;
    const stopReason = trimmed(json['stopReason']);
    if (stopReason !== undefined) result.stopReason = stopReason;
    result.entries.push({ kind: 'stop', text: stopReason ?? `${event} hook stopped execution` });
    if (event === 'PostToolUse') result.feedback.push(reason ?? stopReason ?? `${event} hook stopped execution`);
    if (event === 'PreToolUse') result.block = reason ?? stopReason ?? 'PreToolUse hook stopped execution';
    return result;
  }
  switch (event) {
    case 'PreToolUse':
      return preToolUse(json, specific, result);
    case 'PermissionRequest':
      return permissionRequest(specific, result);
    case 'PostToolUse':
    case 'UserPromptSubmit':
    case 'Stop':
    case 'SubagentStop':
      if (decision === 'block') {
        result.status = 'blocked';
        result.entries.push({ kind: 'feedback', text: reason! });
        if (event === 'PostToolUse') result.feedback.push(reason!);
        else if (event === 'UserPromptSubmit') result.block = reason!;
        else result.continuation = reason!;
      } else if (decision !== undefined && decision !== 'approve') {
        return fail(result, `${event} hook returned unsupported decision ${JSON.stringify(decision)} (use "block")`);
      }
      return result;
    default:
      return result;
  }
}

function preToolUse(json: Json, specific: Json | undefined, result: HandlerResult): HandlerResult {
  const permission = specific?.['permissionDecision'];
  const permissionReason = trimmed(specific?.['permissionDecisionReason']);
  const updated = specific?.['updatedInput'];
  const useSpecific = permission !== undefined || permissionReason !== undefined || updated !== undefined;
  if (useSpecific) {
    if (permission === undefined) {
      return fail(
        result,
        updated !== undefined
          ? 'PreToolUse hook returned updatedInput without permissionDecision "allow" or "ask"'
          : 'PreToolUse hook returned permissionDecisionReason without permissionDecision',
      );
    }
    if (permission !== 'allow' && permission !== 'deny' && permission !== 'ask') {
      return fail(result, `PreToolUse hook returned unsupported permissionDecision ${JSON.stringify(permission)} (allow, deny or ask)`);
    }
    if (updated !== undefined && (typeof updated !== 'object' || updated === null || Array.isArray(updated))) {
      return fail(result, 'PreToolUse hook returned updatedInput that is not an object');
    }
    if (permission === 'deny') {
      if (permissionReason === undefined) {
        return fail(result, 'PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason');
      }
      result.status = 'blocked';
      result.block = permissionReason;
      result.permissionDecision = 'deny';
      result.entries.push({ kind: 'feedback', text: permissionReason });
      return result;
    }
    result.permissionDecision = permission;
    if (updated !== undefined) result.updatedInput = updated;
    return result;
  }
  // The older top-level form: decision "block" | "approve" with reason.
  const decision = json['decision'];
  const reason = trimmed(json['reason']);
  if (decision === 'block') {
    if (reason === undefined) return fail(result, 'PreToolUse hook returned decision:block without a non-empty reason');
    result.status = 'blocked';
    result.block = reason;
    result.permissionDecision = 'deny';
    result.entries.push({ kind: 'feedback', text: reason });
  } else if (decision === 'approve') {
    result.permissionDecision = 'allow';
  } else if (decision !== undefined) {
    return fail(result, `PreToolUse hook returned unsupported decision ${JSON.stringify(decision)} (block or approve)`);
  } else if (reason !== undefined) {
    return fail(result, 'PreToolUse hook returned reason without decision');
  }
  return result;
}

function permissionRequest(specific: Json | undefined, result: HandlerResult): HandlerResult {
  const decision = specific?.['decision'] as Json | undefined;
  if (decision === undefined) return result;
  if (typeof decision !== 'object' || decision === null) return fail(result, 'PermissionRequest hook returned a decision that is not an object');
  const behavior = decision['behavior'];
  if (behavior === 'allow') {
    result.permission = { behavior: 'allow' };
    const updated = decision['updatedInput'];
    if (updated !== undefined) {
      if (typeof updated !== 'object' || updated === null || Array.isArray(updated)) {
        return fail(result, 'PermissionRequest hook returned updatedInput that is not an object');
      }
      result.updatedInput = updated;
    }
    return result;
  }
  if (behavior === 'deny') {
    const message = trimmed(decision['message']) ?? 'PermissionRequest hook denied approval';
    result.status = 'blocked';
    result.permission = { behavior: 'deny', message };
    result.entries.push({ kind: 'feedback', text: message });
    if (decision['interrupt'] === true) {
      result.stop = true;
      result.stopReason = message;
    }
    return result;
  }
  return fail(result, `PermissionRequest hook returned unsupported decision.behavior ${JSON.stringify(behavior)} (allow or deny)`);
}
