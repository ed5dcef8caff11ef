// The interactive session on the engine: `rig`, `rig "prompt"`, `rig resume [id]`, `rig fork [id]`
// on a terminal. The first frame comes first; the engine is loaded and the thread opened behind it
// (an error doing so ends the session and is printed once the terminal is back). With no id for
// resume or fork, the TUI opens on the thread picker.
import { resolve } from 'node:path';
import type { ResumeTarget, ThreadStartRequest } from '../../core/engine.js';
import type { UserInput } from '../../protocol/index.js';

export interface TuiSessionInput {
  mode: 'new' | 'resume' | 'fork';
  /** For resume and fork; absent (or neither id nor last): the picker. */
  target?: ResumeTarget;
  thread: ThreadStartRequest;
  /** Sent as the first message. */
  prompt?: string;
  images?: string[];
  /** false: --no-alt-screen. */
  altScreen?: boolean;
}

export interface TuiSessionIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stderr: (text: string) => void;
}

export type AlternateScreenMode = 'never' | 'auto' | 'always';

/**
 * Whether to take the alternate screen. rig renders inline by default (the scrollback keeps the
 * session); `auto` means what it means in Codex (the alternate screen, except in Zellij, whose
 * scrollback does not work with it); --no-alt-screen wins over config.
 */
export function useAlternateScreen(mode: AlternateScreenMode | undefined, flag: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (flag === false) return false;
  if (mode === 'always') return true;
  if (mode === 'auto') return !env['ZELLIJ'];
  return false;
}

/** tui.notifications: true, false, or Codex's list of event kinds (any kind turns them on here). */
export function notificationsOn(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== false;
}

export async function runTuiSession(input: TuiSessionInput, io: TuiSessionIo = { env: process.env, cwd: process.cwd(), stderr: (t) => void process.stderr.write(t) }): Promise<number> {
  const request: ThreadStartRequest = { ...input.thread, cwd: io.cwd };
  const cwd = request.cd ? resolve(io.cwd, request.cd) : io.cwd;
  // The [tui] table decides the screen before the first frame; a broken config is reported here,
  // as a plain line, before the terminal changes mode.
  let tui: { alternate_screen?: AlternateScreenMode; notifications?: unknown } | undefined;
  // The TUI's code is read while the config loads: the first frame waits for both, not one after the other.
  const modules = Promise.all([import('./engine-port.js'), import('./run.js')]);
  modules.catch(() => undefined);
  try {
    const { loadConfig, resolveRigHome } = await import('../../core/config-files.js');
    tui = loadConfig({ home: resolveRigHome(io.env), cwd, env: io.env, overrides: request.config ?? [], ...(request.profile ? { profile: request.profile } : {}) }).config.tui;
  } catch (error) {
    io.stderr(`rig: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const [{ EnginePort }, { runTui }] = await modules;
  const port = new EnginePort({
    engine: async () => {
      const { Engine } = await import('../../core/engine.js');
      return new Engine({ env: io.env, source: 'cli' });
    },
    request,
    cwd,
  });
  const target = input.target;
  const pick = input.mode !== 'new' && !target?.id && !target?.last;
  const initialPrompt: UserInput | undefined = input.prompt ? { text: input.prompt, ...(input.images?.length ? { images: input.images } : {}) } : undefined;
  // The thread is opened once runTui has drawn the first frame (it draws before it first waits);
  // the engine loads while the user reads the screen, and what is typed meanwhile waits for it.
  let failure: unknown;
  if (!pick) {
    port
      .begin(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return input.mode === 'new' ? port.open('new') : port.open(input.mode, target!);
      })
      .catch((error: unknown) => {
        // The thread could not be opened (no such thread, a provider error): the session ends, and
        // says why once the terminal is back.
        failure = error;
        void port.close();
      });
  }
  const running = runTui({
    port,
    cwd,
    env: io.env,
    notifications: notificationsOn(tui?.notifications),
    alternateScreen: useAlternateScreen(tui?.alternate_screen, input.altScreen, io.env),
    ...(pick ? { pickAtStart: input.mode === 'fork' ? 'fork' : 'resume' } : {}),
    ...(initialPrompt ? { initialPrompt } : {}),
  });
  const code = await running;
  if (failure !== undefined) {
    io.stderr(`rig: ${failure instanceof Error ? failure.message : String(failure)}\n`);
    return 1;
  }
  const last = port.lastThreadId;
  if (last && code !== 129) io.stderr(`To continue this thread: rig resume ${last}\n`);
  return code;
}
