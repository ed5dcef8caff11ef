// `rig [prompt...]` with no subcommand (what `npm start` runs): with a usable provider it runs the
// prompt as `rig exec` does. With no API key and no prompt it runs the offline demo, so a fresh
// clone shows a real session before any setup; with a prompt it fails (exit 1) saying what to set,
// so a script never mistakes an unsent task for a done one.
import { loadConfig, resolveRigHome } from '../config/index.js';
import { providerAuth, resolveProvider, type ProviderInfo } from '../model/index.js';
import type { SessionFlags } from '../core/settings.js';

export interface DefaultRunOptions {
  /** Root options given with the prompt (-m, -c, --provider, ...). */
  flags?: SessionFlags;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Where the demo makes its temp copy (default: the OS temp directory). */
  demoTempParent?: string;
}

type Readiness = { ready: true } | { ready: false; missingKey: string; provider: ProviderInfo };

/** Whether the configured provider can be called: it needs no key, or its key is set. */
export function providerReadiness(flags: SessionFlags, env: NodeJS.ProcessEnv, cwd: string): Readiness {
  if (flags.replay) return { ready: true };
  const loaded = loadConfig({
    home: resolveRigHome(env),
    cwd,
    ...(flags.profile ? { profile: flags.profile } : {}),
    overrides: flags.config ?? [],
    flags: flags.provider ? { provider: flags.provider } : {},
    env,
    ...(flags.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
  });
  const id = loaded.config.model_provider;
  if (id === 'replay') return { ready: true };
  const provider = resolveProvider(id, loaded.config.model_providers as Record<string, Partial<ProviderInfo>>, env);
  try {
    providerAuth(provider, env);
    return { ready: true };
  } catch {
    return { ready: false, missingKey: provider.env_key ?? 'an API key', provider };
  }
}

const USAGE = [
  'rig is ready. Give it a task:',
  '  rig "fix the failing test in src/parser.ts"    (or: rig exec "...")',
  '  rig demo                                        replay a recorded session offline',
  '  rig --help                                      every command and option',
  '',
].join('\n');

export async function runDefault(promptArgs: string[], options: DefaultRunOptions = {}): Promise<number> {
  const flags = options.flags ?? {};
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? ((text: string) => void process.stdout.write(text));
  const stderr = options.stderr ?? ((text: string) => void process.stderr.write(text));

  let readiness: Readiness;
  try {
    readiness = providerReadiness(flags, env, options.cwd ?? process.cwd());
  } catch (error) {
    stderr(`rig: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }

  const prompt = promptArgs.join(' ').trim();
  if (!readiness.ready) {
    const { missingKey, provider } = readiness;
    const fix = `export ${missingKey}=..., or pick another model_provider in ${resolveRigHome(env)}/config.toml (or --provider ID)`;
    if (prompt !== '') {
      stderr(`rig: no API key for ${provider.name}: ${missingKey} is not set, so your prompt was not sent. To run it: ${fix}. \`rig demo\` shows a recorded session offline.\n`);
      return 1;
    }
    stderr(`rig: no API key for ${provider.name}: ${missingKey} is not set (${fix}); running the offline demo instead.\n\n`);
    const { runDemo } = await import('./demo.js');
    return (await runDemo({ env, stdout, stderr, ...(options.demoTempParent ? { tempParent: options.demoTempParent } : {}) })).exitCode;
  }

  if (prompt === '') {
    stdout(USAGE);
    return 0;
  }
  const { runExecCommand } = await import('./exec/run.js');
  return runExecCommand({ prompt, flags });
}
