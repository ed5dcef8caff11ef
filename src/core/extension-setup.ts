// Builds what a loaded thread adds to its turns (hooks, checkpoints, skills, notify) from its
// config, and the thread-level hook points the engine calls: SessionStart after the thread is
// announced, SessionEnd when it closes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RigConfig } from '../config/index.js';
import { findProjectRoot, isProjectTrusted } from '../config/index.js';
import { loadHooks } from '../hooks/index.js';
import { checkpointDirForRollout, DEFAULT_MAX_TOTAL_CHECKPOINT_BYTES } from '../checkpoints/index.js';
import { sessionsDir } from '../store/index.js';
import type { ConversationItem } from '../protocol/index.js';
import { ThreadHooks, hookContextItem } from './hook-points.js';
import { ThreadCheckpoints, trackerRoots } from './checkpointing.js';
import { ThreadExtensionSet } from './turn-extensions.js';
import type { BuiltRuntime, ThreadResources } from './thread-runtime.js';

export interface ExtensionInputs {
  config: RigConfig;
  home: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  threadId: string;
  resources: ThreadResources;
  built: BuiltRuntime;
  /** The rollout the thread writes (undefined: ephemeral). */
  rolloutPath?: string;
  ignoreUserConfig?: boolean;
  /** The front end (notify's `client`). */
  client?: string;
  /** Context items for a prompt's `$name` mentions. */
  mentionItems?: (text: string) => ConversationItem[];
}

export interface ThreadExtensionsSetup {
  extensions: ThreadExtensionSet;
  hooks: ThreadHooks;
  checkpoints: ThreadCheckpoints;
  warnings: string[];
}

export function setupExtensions(inputs: ExtensionInputs, warn: (text: string) => void): ThreadExtensionsSetup {
  const { config, home, cwd, env, resources } = inputs;
  const projectRoot = findProjectRoot(cwd, config.project_root_markers);
  const loaded = loadHooks({
    home,
    cwd,
    projectTrusted: isProjectTrusted(config, cwd),
    ...(projectRoot !== undefined ? { projectRoot } : {}),
    ...(inputs.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
  });
  const warnings = [...loaded.warnings];
  if (loaded.pending.length > 0) {
    const n = loaded.pending.length;
    warnings.push(`${n} project hook${n === 1 ? ' is' : 's are'} new or changed and will not run until confirmed: run \`rig hooks trust\` in ${cwd}`);
  }
  const hooks = new ThreadHooks({
    handlers: loaded.active,
    sessionId: inputs.threadId,
    cwd,
    ...(projectRoot !== undefined ? { projectDir: projectRoot } : {}),
    env,
    scope: resources.scope,
  });
  hooks.transcriptPath = inputs.rolloutPath ?? null;
  hooks.setFacts(inputs.built.hookFacts);
  hooks.warn = warn;
  resources.hooks = hooks;

  const ephemeral = inputs.rolloutPath === undefined;
  const dir = ephemeral ? fs.mkdtempSync(path.join(os.tmpdir(), 'rig-checkpoints-')) : checkpointDirForRollout(inputs.rolloutPath!);
  const writable = inputs.built.safety.sandbox.writableRoots.map((r) => r.root);
  const checkpoints = new ThreadCheckpoints({
    dir,
    removeOnClose: ephemeral,
    // Temp folders are writable roots of the sandbox, never a workspace: watching them would copy
    // every other program's scratch files into the baseline.
    roots: trackerRoots(cwd, writable, ['/tmp', '/var/tmp', '/dev/shm', os.tmpdir(), os.homedir(), home]),
    prune: { sessionsDir: sessionsDir(home), maxBytes: DEFAULT_MAX_TOTAL_CHECKPOINT_BYTES },
    notice: warn,
  });
  resources.checkpoints = checkpoints;

  const extensions = new ThreadExtensionSet({
    threadId: inputs.threadId,
    cwd,
    hooks,
    checkpoints,
    ...(inputs.mentionItems ? { mentionItems: inputs.mentionItems } : {}),
    ...(config.notify?.length ? { notify: config.notify } : {}),
    ...(inputs.client ? { client: inputs.client } : {}),
    warn,
  });
  return { extensions, hooks, checkpoints, warnings };
}

/**
 * SessionStart: its context goes with the next turn; `continue: false` ends the session (the
 * engine closes the thread and reports `stopReason`).
 */
export async function fireSessionStart(hooks: ThreadHooks, source: 'startup' | 'resume' | 'clear' | 'compact'): Promise<{ stop?: string }> {
  const outcome = await hooks.run('SessionStart', { source });
  if (!outcome) return {};
  if (outcome.stop) return { stop: outcome.stopReason ?? 'a SessionStart hook ended the session' };
  for (const text of outcome.additionalContexts) hooks.queueContext(hookContextItem('SessionStart', text));
  return {};
}
