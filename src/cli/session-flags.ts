// The engine flags as commander parses them (camelCase), and their translation into what the engine
// and the front ends take. Flag vocabulary ends here: below the CLI, threads get typed requests.
import type { ThreadStartRequest } from '../core/engine.js';
import type { ThreadOverrides } from '../core/thread-settings.js';
import { EXEC_NO_TIMERS } from '../core/timers/reasons.js';

export interface SessionFlags {
  config?: string[];
  profile?: string;
  model?: string;
  provider?: string;
  harness?: string;
  cd?: string;
  sandbox?: 'read-only' | 'workspace-write' | 'danger-full-access';
  askForApproval?: 'untrusted' | 'on-request' | 'on-failure' | 'never';
  addDir?: string[];
  fullAuto?: boolean;
  dangerouslyBypassApprovalsAndSandbox?: boolean;
  yolo?: boolean;
  replay?: string;
  ignoreUserConfig?: boolean;
  ignoreRules?: boolean;
  strictConfig?: boolean;
  json?: boolean;
  experimentalJson?: boolean;
  outputLastMessage?: string;
  outputSchema?: string;
  image?: string[];
  skipGitRepoCheck?: boolean;
  ephemeral?: boolean;
  color?: 'always' | 'never' | 'auto';
  last?: boolean;
  all?: boolean;
  plan?: boolean;
  /** false with --no-alt-screen. */
  altScreen?: boolean;
}

export type SessionMode = 'exec' | 'interactive';

function overridesFromFlags(flags: SessionFlags, mode: SessionMode): ThreadOverrides {
  const yolo = Boolean(flags.dangerouslyBypassApprovalsAndSandbox || flags.yolo);
  // exec has nobody to ask: it never prompts unless told otherwise.
  const approval = flags.askForApproval ?? (flags.fullAuto ? 'on-request' : mode === 'exec' ? 'never' : undefined);
  const sandbox = flags.sandbox ?? (flags.fullAuto ? 'workspace-write' : undefined);
  return {
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.provider ? { provider: flags.provider } : {}),
    ...(flags.harness ? { harness: flags.harness } : {}),
    ...(sandbox ? { sandbox } : {}),
    ...(approval ? { approvalPolicy: approval } : {}),
    ...(yolo ? { yolo } : {}),
    ...(flags.replay ? { replayFile: flags.replay } : {}),
    ...(flags.plan ? { planMode: true } : {}),
  };
}

/** The thread request the flags describe, for a front end running in `cwd`. */
export function threadRequestFromFlags(flags: SessionFlags, mode: SessionMode, cwd: string = process.cwd()): ThreadStartRequest {
  return {
    cwd,
    ...(flags.cd ? { cd: flags.cd } : {}),
    ...(flags.profile ? { profile: flags.profile } : {}),
    ...(flags.config?.length ? { config: flags.config } : {}),
    ...(flags.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
    ...(flags.strictConfig ? { strictConfig: true } : {}),
    ...(flags.addDir?.length ? { addDirs: flags.addDir } : {}),
    overrides: overridesFromFlags(flags, mode),
    ...(flags.ephemeral ? { ephemeral: true } : {}),
    ...(flags.ignoreRules ? { ignoreRules: true } : {}),
    ...(mode === 'exec' ? { requireTrustedDirectory: !flags.skipGitRepoCheck, canAskApproval: false, noTimers: EXEC_NO_TIMERS } : {}),
  };
}

/** What `rig exec` (and `rig PROMPT`) hands its front end. */
export function execInputFromFlags(flags: SessionFlags) {
  return {
    thread: threadRequestFromFlags(flags, 'exec'),
    json: Boolean(flags.json || flags.experimentalJson),
    color: flags.color ?? 'auto',
    ...(flags.outputLastMessage ? { outputLastMessage: flags.outputLastMessage } : {}),
    ...(flags.outputSchema ? { outputSchemaFile: flags.outputSchema } : {}),
    ...(flags.image?.length ? { images: flags.image } : {}),
  } as const;
}
