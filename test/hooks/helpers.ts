// Shared by the hooks tests: a temp folder with hook scripts, and a context for runHooks.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HookContext, HookDefinition, HookEventName } from '../../src/hooks/index.js';
import { hookHash } from '../../src/hooks/index.js';

/** Writes an executable shell script and returns the command that runs it. */
export function script(dir: string, name: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return JSON.stringify(file);
}

let order = 0;

export function handler(event: HookEventName, command: string, extra: Partial<HookDefinition> = {}): HookDefinition {
  const fields = { command, timeoutSec: extra.timeoutSec ?? 30, async: extra.async ?? false };
  return {
    key: `/test/hooks.json:${event}:0:${order}`,
    event,
    sourcePath: '/test/hooks.json',
    scope: 'user',
    hash: hookHash(event, extra.matcher, fields),
    groupIndex: 0,
    handlerIndex: order,
    displayOrder: order++,
    ...fields,
    ...extra,
  };
}

export function context(cwd: string, handlers: HookDefinition[], extra: Partial<HookContext> = {}): HookContext {
  return {
    handlers,
    sessionId: '0190a6f2-0000-7000-8000-000000000001',
    turnId: 'turn-1',
    cwd,
    transcriptPath: null,
    model: 'mock-model',
    permissionMode: 'default',
    shell: '/bin/sh',
    ...extra,
  };
}
