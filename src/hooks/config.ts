// Hook configuration in both of its forms, taken unchanged: Codex's `[hooks]` table of config.toml
// (`[[hooks.PreToolUse]]` groups with `[[hooks.PreToolUse.hooks]]` handlers) and Claude Code's
// JSON (`{"hooks": {"PreToolUse": [{"matcher": ..., "hooks": [...]}]}}`, as in settings.json or a
// plugin's hooks.json). Structure errors (a missing command, a wrong type, a matcher that is not a
// regular expression) stop loading with the file, line and key; what rig cannot act on (events it
// never fires, handler types it cannot run, Claude Code-only options) loads with a warning.
import { createHash } from 'node:crypto';
import { ConfigError, formatKeyPath } from '../config/index.js';
import { effectiveTimeoutSec, eventKeyLabel, eventUsesMatcher, FOREIGN_HOOK_EVENTS, HOOK_EVENTS, isHookEvent, type HookEventName } from './events.js';
import { matcherProblem } from './matcher.js';
import type { HookDefinition, HookScope } from './types.js';

/** Where a key path is written, as a message prefix (`file:line`). */
export type HookLocator = (path: readonly (string | number)[]) => string;

export interface HookSourceInput {
  /** The file the table came from (its path is part of every handler's trust key). */
  sourcePath: string;
  scope: HookScope;
  /** The events table: a layer's `hooks` value, or hooks.json's `hooks`. */
  events: unknown;
  /** Key path of `events` in its file (['hooks']). */
  prefix: readonly (string | number)[];
  locate: HookLocator;
  /** Keys of `events` that are not events (Codex's `state` table). */
  reserved?: readonly string[];
  /**
   * Warn about unknown events and keys. Off for config.toml, whose schema (src/config/schema.ts)
   * already reports them when the config loads.
   */
  warnUnknown?: boolean;
}

export interface ParsedHooks {
  definitions: Omit<HookDefinition, 'displayOrder'>[];
  warnings: string[];
}

const HANDLER_TYPES = ['command', 'prompt', 'agent', 'http', 'mcp_tool'] as const;
const COMMAND_KEYS = new Set(['type', 'command', 'commandWindows', 'timeout', 'async', 'statusMessage', 'visibilityHint']);
/** Claude Code handler options rig reads but does not act on. */
const CLAUDE_ONLY_KEYS = new Set(['once', 'if', 'shell', 'asyncRewake', 'onFailure']);
const GROUP_KEYS = new Set(['matcher', 'hooks']);

const isTable = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'a table';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value);
  return String(value);
}

export function hookHash(event: HookEventName, matcher: string | undefined, handler: { command: string; timeoutSec: number; async: boolean; statusMessage?: string }): string {
  const identity = JSON.stringify({
    event: eventKeyLabel(event),
    matcher: matcher ?? null,
    type: 'command',
    command: handler.command,
    timeout: handler.timeoutSec,
    async: handler.async,
    statusMessage: handler.statusMessage ?? null,
  });
  return 'sha256:' + createHash('sha256').update(identity).digest('hex');
}

/** Validates one events table; throws a ConfigError listing every structural problem. */
export function parseHookEvents(source: HookSourceInput): ParsedHooks {
  const problems: string[] = [];
  const warnings: string[] = [];
  const definitions: ParsedHooks['definitions'] = [];
  const at = (path: (string | number)[]) => source.locate([...source.prefix, ...path]);
  const key = (path: (string | number)[]) => formatKeyPath([...source.prefix, ...path]);
  if (source.events === undefined) return { definitions, warnings };
  if (!isTable(source.events)) {
    throw new ConfigError(`${at([])}: invalid type for ${key([])}: found ${describe(source.events)}, expected a table of hook events`);
  }
  for (const [event, groups] of Object.entries(source.events)) {
    if (source.reserved?.includes(event)) continue;
    if (!isHookEvent(event)) {
      if (source.warnUnknown === false) continue;
      const why = FOREIGN_HOOK_EVENTS.includes(event)
        ? 'a Claude Code event rig does not fire'
        : `not a hook event (rig fires: ${HOOK_EVENTS.join(', ')})`;
      warnings.push(`${at([event])}: hooks for ${key([event])} never run: ${why}`);
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push(`${at([event])}: invalid type for ${key([event])}: found ${describe(groups)}, expected an array of matcher groups`);
      continue;
    }
    groups.forEach((group, g) => {
      if (!isTable(group)) {
        problems.push(`${at([event, g])}: invalid type for ${key([event, g])}: found ${describe(group)}, expected a table { matcher = "...", hooks = [...] }`);
        return;
      }
      for (const k of source.warnUnknown === false ? [] : Object.keys(group)) {
        if (!GROUP_KEYS.has(k)) warnings.push(`${at([event, g, k])}: unknown hook group key ${key([event, g, k])} (ignored)`);
      }
      const rawMatcher = group['matcher'];
      if (rawMatcher !== undefined && typeof rawMatcher !== 'string') {
        problems.push(`${at([event, g, 'matcher'])}: invalid type for ${key([event, g, 'matcher'])}: found ${describe(rawMatcher)}, expected a string`);
        return;
      }
      const matcher = eventUsesMatcher(event) ? (rawMatcher as string | undefined) : undefined;
      if (matcher !== undefined) {
        const problem = matcherProblem(matcher);
        if (problem !== undefined) {
          problems.push(
            `${at([event, g, 'matcher'])}: invalid matcher ${JSON.stringify(matcher)} in ${key([event, g, 'matcher'])}: ${problem}. ` +
              'Use names separated by "|" (Edit|Write), "*" for all, or a valid regular expression',
          );
          return;
        }
      }
      const handlers = group['hooks'];
      if (!Array.isArray(handlers)) {
        problems.push(
          `${at([event, g])}: ${key([event, g, 'hooks'])} ${handlers === undefined ? 'is missing' : `has type ${describe(handlers)}`}: ` +
            'each matcher group needs a hooks array of handlers, e.g. { type = "command", command = "./check.sh" }',
        );
        return;
      }
      handlers.forEach((handler, h) => {
        const path = [event, g, 'hooks', h];
        if (!isTable(handler)) {
          problems.push(`${at(path)}: invalid type for ${key(path)}: found ${describe(handler)}, expected a table { type = "command", command = "..." }`);
          return;
        }
        const type = handler['type'];
        if (type === undefined) {
          problems.push(`${at(path)}: ${key([...path, 'type'])} is missing: set type = "command"`);
          return;
        }
        if (!(HANDLER_TYPES as readonly unknown[]).includes(type)) {
          problems.push(`${at([...path, 'type'])}: invalid value for ${key([...path, 'type'])}: found ${describe(type)}, expected one of ${HANDLER_TYPES.map((t) => `"${t}"`).join(', ')}`);
          return;
        }
        if (type !== 'command') {
          warnings.push(`${at([...path, 'type'])}: skipping the ${type} hook ${key(path)}: rig runs only command hooks`);
          return;
        }
        for (const k of source.warnUnknown === false ? [] : Object.keys(handler)) {
          if (CLAUDE_ONLY_KEYS.has(k)) warnings.push(`${at([...path, k])}: ${key([...path, k])} has no effect in rig (a Claude Code option rig does not support)`);
          else if (!COMMAND_KEYS.has(k)) warnings.push(`${at([...path, k])}: unknown hook key ${key([...path, k])} (ignored)`);
        }
        const command = handler['command'];
        if (typeof command !== 'string' || command.trim() === '') {
          problems.push(
            `${at([...path, 'command'])}: ${key([...path, 'command'])} ${command === undefined ? 'is missing' : typeof command === 'string' ? 'is empty' : `has type ${describe(command)}`}: ` +
              'a command hook needs the shell command to run, e.g. command = "python3 check.py"',
          );
          return;
        }
        const timeout = handler['timeout'];
        if (timeout !== undefined && !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout >= 0)) {
          problems.push(`${at([...path, 'timeout'])}: invalid value for ${key([...path, 'timeout'])}: found ${describe(timeout)}, expected a number of seconds >= 0 (0 means 1)`);
          return;
        }
        for (const flag of ['async'] as const) {
          if (handler[flag] !== undefined && typeof handler[flag] !== 'boolean') {
            problems.push(`${at([...path, flag])}: invalid type for ${key([...path, flag])}: found ${describe(handler[flag])}, expected a boolean (true or false)`);
            return;
          }
        }
        const statusMessage = handler['statusMessage'];
        if (statusMessage !== undefined && typeof statusMessage !== 'string') {
          problems.push(`${at([...path, 'statusMessage'])}: invalid type for ${key([...path, 'statusMessage'])}: found ${describe(statusMessage)}, expected a string`);
          return;
        }
        const isAsync = handler['async'] === true;
        if (isAsync && event === 'SessionEnd') {
          warnings.push(`${at([...path, 'async'])}: ${key([...path, 'async'])} is ignored for SessionEnd: its hooks always run before the session ends`);
        }
        const timeoutSec = effectiveTimeoutSec(event, timeout === undefined ? undefined : Math.ceil(timeout));
        const fields = {
          command,
          timeoutSec,
          async: isAsync && event !== 'SessionEnd',
          ...(statusMessage !== undefined ? { statusMessage } : {}),
        };
        definitions.push({
          key: `${source.sourcePath}:${eventKeyLabel(event)}:${g}:${h}`,
          event,
          ...(matcher !== undefined && matcher !== '' && matcher !== '*' ? { matcher } : {}),
          ...fields,
          sourcePath: source.sourcePath,
          scope: source.scope,
          hash: hookHash(event, matcher, fields),
          groupIndex: g,
          handlerIndex: h,
        });
      });
    });
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return { definitions, warnings };
}
