// Which ripgrep to run: the binary an npm platform package ships (@vscode/ripgrep-<platform>-<arch>,
// installed as an optional dependency, no download at install time), else `rg` on PATH, else none
// (searches then run in-process, off the main thread). The `ripgrep` config key picks one
// explicitly (`auto`, `bundled`, `system`, `off`, or a path to an rg binary); RIG_RIPGREP, when
// set, overrides it.
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, isAbsolute, join } from 'node:path';

export type RipgrepSource = 'bundled' | 'system' | 'configured';

export type SearchBackend = { kind: 'ripgrep'; path: string; source: RipgrepSource } | { kind: 'fallback'; reason: string };

const cache = new Map<string, SearchBackend>();

/** The `ripgrep` value of the config the last session was built from (one per process in practice). */
let configured: string | undefined;

/** Sets the config's `ripgrep` value (undefined: not set) for every later search. */
export function configureRipgrep(setting: string | undefined): void {
  configured = setting?.trim() || undefined;
}

/** The setting in force and where it comes from, as a user would write it. */
function currentSetting(env: NodeJS.ProcessEnv): { setting: string; origin: string } {
  const fromEnv = (env['RIG_RIPGREP'] ?? '').trim();
  if (fromEnv !== '') return { setting: fromEnv, origin: `RIG_RIPGREP=${fromEnv}` };
  if (configured !== undefined) return { setting: configured, origin: `ripgrep = ${JSON.stringify(configured)} in config` };
  return { setting: '', origin: '' };
}

/** The backend searches use under `env` (resolved once per distinct setting). */
export function searchBackend(env: NodeJS.ProcessEnv = process.env): SearchBackend {
  const { setting, origin } = currentSetting(env);
  const key = `${origin}\0${setting === '' || setting === 'auto' || setting === 'system' ? env['PATH'] ?? '' : ''}`;
  let backend = cache.get(key);
  if (!backend) {
    backend = resolveBackend(setting, origin, env);
    cache.set(key, backend);
  }
  return backend;
}

/**
 * Why an explicitly chosen rg cannot be used (searches then run in-process), for a notice at
 * session start and for rig doctor; undefined when the choice is usable or nothing was chosen.
 */
export function unusableRipgrepChoice(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const { setting } = currentSetting(env);
  if (setting === '' || setting === 'auto' || setting === 'off' || setting === 'none' || setting === 'fallback') return undefined;
  const backend = searchBackend(env);
  return backend.kind === 'fallback' ? backend.reason : undefined;
}

function resolveBackend(setting: string, origin: string, env: NodeJS.ProcessEnv): SearchBackend {
  switch (setting) {
    case 'off':
    case 'none':
    case 'fallback':
      return { kind: 'fallback', reason: origin };
    case 'bundled': {
      const path = bundledRipgrep();
      return path ? { kind: 'ripgrep', path, source: 'bundled' } : { kind: 'fallback', reason: `${origin}, but npm installed no @vscode/ripgrep binary for ${process.platform}-${process.arch}` };
    }
    case 'system': {
      const path = systemRipgrep(env['PATH'] ?? '');
      return path ? { kind: 'ripgrep', path, source: 'system' } : { kind: 'fallback', reason: `${origin}, but there is no rg on PATH` };
    }
    case '':
    case 'auto': {
      const bundled = bundledRipgrep();
      if (bundled) return { kind: 'ripgrep', path: bundled, source: 'bundled' };
      const system = systemRipgrep(env['PATH'] ?? '');
      if (system) return { kind: 'ripgrep', path: system, source: 'system' };
      return { kind: 'fallback', reason: 'no bundled rg and none on PATH' };
    }
    default: {
      if (isAbsolute(setting) && isExecutable(setting)) return { kind: 'ripgrep', path: setting, source: 'configured' };
      if (isAbsolute(setting)) return { kind: 'fallback', reason: `${origin}, but that is not an executable file` };
      // Warned about when the config is read; the variable gets the same treatment.
      return resolveBackend('auto', origin, env);
    }
  }
}

/** The rg inside @vscode/ripgrep's platform package, if npm installed one for this machine. */
export function bundledRipgrep(): string | undefined {
  const binary = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const platformPackage = `@vscode/ripgrep-${process.platform}-${process.arch}`;
  const require = createRequire(import.meta.url);
  const attempts = [(): string => require.resolve(`${platformPackage}/bin/${binary}`)];
  // npm may nest the platform package under @vscode/ripgrep when versions differ.
  attempts.push(() => createRequire(require.resolve('@vscode/ripgrep')).resolve(`${platformPackage}/bin/${binary}`));
  for (const attempt of attempts) {
    try {
      const path = attempt();
      if (isExecutable(path)) return path;
    } catch {
      // not installed for this platform
    }
  }
  return undefined;
}

export function systemRipgrep(pathVariable: string): string | undefined {
  const binary = process.platform === 'win32' ? 'rg.exe' : 'rg';
  for (const dir of pathVariable.split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, binary);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
