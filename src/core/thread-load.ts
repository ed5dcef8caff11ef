// What loading a thread needs besides the engine's bookkeeping: the settings a rollout recorded,
// the records a fork keeps, the opening context of a new thread, and a history whose calls and
// outputs pair up again (a crash, a corrupt line, two writers).
import { basename } from 'node:path';
import type { ConversationItem } from '../protocol/index.js';
import type { RigConfig } from '../config/index.js';
import { buildEnvironmentContext, buildInitialContextMessage, discoverProjectDocs } from '../context/index.js';
import { detectUserShell } from '../exec/shell.js';
import { readGitInfo, repairCallPairing, type RolloutRecord } from '../store/index.js';
import type { RecordedSettings } from './thread-settings.js';
import type { BuiltRuntime } from './thread-runtime.js';
import type { ResumedThread } from './session-resume.js';

/** The records of a thread through turn `atTurn` (inclusive); all of them without a turn. */
export function recordsThrough(records: RolloutRecord[], atTurn: string | undefined, file: string): RolloutRecord[] {
  if (atTurn === undefined) return records;
  const start = records.findIndex((r) => r.type === 'turn_context' && r.payload.turn_id === atTurn);
  if (start < 0) throw new Error(`turn ${atTurn} is not in ${file}; cannot fork there (see the turn ids with readThread)`);
  const next = records.findIndex((r, i) => i > start && r.type === 'turn_context');
  return next < 0 ? records : records.slice(0, next);
}

export function recordedSettings(resumed: ResumedThread | undefined): RecordedSettings {
  if (!resumed) return {};
  const context = resumed.turnContext;
  const meta = resumed.meta;
  // A move into or out of a worktree after the newest turn began is newer than that turn's cwd.
  const cwd = resumed.workingDirectory ?? context?.cwd ?? meta?.cwd;
  const model = context?.model ?? meta?.model;
  const provider = context?.model_provider ?? meta?.model_provider;
  const harness = context?.harness ?? meta?.harness;
  const effort = context?.effort;
  return {
    ...(cwd ? { cwd } : {}),
    ...(model ? { model } : {}),
    ...(provider ? { provider } : {}),
    ...(harness ? { harness } : {}),
    ...(effort ? { reasoningEffort: effort } : {}),
  };
}

/** The opening context of a new thread: developer instructions, AGENTS.md, the environment block. */
export function initialContext(config: RigConfig, cwd: string, home: string, env: NodeJS.ProcessEnv, built: BuiltRuntime): ConversationItem[] {
  const items: ConversationItem[] = [];
  if (config.developer_instructions) items.push({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: config.developer_instructions }] });
  const docs = discoverProjectDocs({
    cwd,
    home,
    markers: config.project_root_markers,
    fallbackFilenames: config.project_doc_fallback_filenames,
    maxBytes: config.project_doc_max_bytes,
    ...(config.instructions ? { userInstructions: config.instructions } : {}),
  });
  const { safety } = built;
  const environmentContext = config.include_environment_context === false
    ? undefined
    : buildEnvironmentContext({
        cwd,
        shell: basename(detectUserShell(env).path),
        sandboxMode: safety.sandbox.mode,
        approvalPolicy: typeof safety.approvalPolicy === 'string' ? safety.approvalPolicy : 'granular',
        networkAccess: safety.sandbox.networkAccess,
        now: new Date(),
      });
  const message = buildInitialContextMessage({ cwd, instructions: docs.text, ...(environmentContext ? { environmentContext } : {}) });
  if (message) items.push(message);
  return items;
}

/** Calls without outputs answered as aborted, orphans and duplicates dropped (store's repairCallPairing). */
export function closeDanglingCalls(history: ConversationItem[]): ConversationItem[] {
  return repairCallPairing(history).history;
}

export function gitMeta(cwd: string): { git?: ReturnType<typeof readGitInfo> } {
  const git = readGitInfo(cwd);
  return git ? { git } : {};
}
