// `rig doctor`'s findings: what rig would do here and whether it can. The sandbox diagnosis plus
// the facts users need when something does not work: where RIG_HOME is, which config files were
// read and whether they are valid, the provider and whether its key is set (never the key itself),
// the harness it would present, the runtime, and exactly what a session's commands get (sandbox
// policy and environment, from the code sessions use).
import fs from 'node:fs';
import path from 'node:path';
import type { ConfigFlags, LoadedConfig } from '../config/index.js';
import { resolveRigHome } from '../config/index.js';
import { sandboxDoctorReport, type BwrapDiagnosis, type SandboxPolicy } from '../exec/sandbox/index.js';
import { chooseHarness } from '../harness/index.js';
import { checkReachability, displayUrl, resolveProvider, type ProviderInfo } from '../model/index.js';
import { PROCESS_SCOPE_VAR, THREAD_ID_VAR } from './safety.js';
import { loadSafetyConfig, sessionSafety, SafetySetupError } from './safety-commands.js';
import { rigVersion } from './version.js';
import { describeMcpServers } from './doctor-mcp.js';
import { configureRipgrep, searchBackend, unusableRipgrepChoice } from '../tools/search/locate.js';

export interface DoctorInput {
  env: NodeJS.ProcessEnv;
  cwd: string;
  config?: string[];
  /** -p/--profile */
  profile?: string;
  ignoreUserConfig?: boolean;
  addDirs?: string[];
  /** Command-line choices that beat config (-m, --provider, --harness, -s, -C). */
  choices?: ConfigFlags;
  /** --offline: do not contact the provider. */
  offline?: boolean;
  platform?: NodeJS.Platform;
  /** Tests: a fixed bubblewrap diagnosis. */
  diagnosis?: () => BwrapDiagnosis;
}

export interface DoctorReport {
  lines: string[];
  /** Things that keep rig from working here (each also a `PROBLEM:` line). */
  problems: number;
}

export async function diagnose(input: DoctorInput): Promise<DoctorReport> {
  const { env, cwd } = input;
  const lines: string[] = [];
  let problems = 0;
  const problem = (text: string) => {
    problems++;
    lines.push(`PROBLEM: ${text}`);
  };

  lines.push(`rig ${rigVersion()} — node ${process.version} on ${process.platform} ${process.arch}`);
  const home = resolveRigHome(env);
  lines.push(`RIG_HOME: ${home}${env['RIG_HOME'] ? '' : ' (default; set RIG_HOME to change)'}${fs.existsSync(home) ? '' : ' (does not exist yet)'}`);

  let loaded: LoadedConfig | undefined;
  try {
    loaded = loadSafetyConfig({
      env,
      cwd,
      ...(input.config ? { config: input.config } : {}),
      ...(input.addDirs?.length ? { addDirs: input.addDirs } : {}),
      ...(input.profile ? { profile: input.profile } : {}),
      ...(input.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
      ...(input.choices ? { flags: input.choices } : {}),
    }).loaded;
  } catch (error) {
    if (!(error instanceof SafetySetupError)) throw error;
    problem(`config is invalid: ${error.message}`);
  }
  const userConfig = path.join(home, 'config.toml');
  let policy: SandboxPolicy | undefined;
  if (loaded) {
    if (loaded.files.length === 0) lines.push(`config: no config files (defaults); user config would be ${userConfig}`);
    for (const file of loaded.files) lines.push(`config: ${file} (valid)`);
    for (const warning of loaded.warnings) lines.push(`  warning: ${warning}`);
    const provider = describeModel(loaded, env, lines, problem);
    if (provider) await describeReachability(provider, env, Boolean(input.offline), lines, problem);
    const approval = loaded.config.approval_policy;
    lines.push(`approval policy: ${typeof approval === 'string' ? approval : 'granular'} (interactive sessions; rig exec never asks)`);
    try {
      const safety = sessionSafety(loaded, env);
      policy = safety.sandbox;
      const own = new Set([THREAD_ID_VAR, PROCESS_SCOPE_VAR]);
      const names = Object.keys(safety.commandEnv).filter((name) => !own.has(name)).sort();
      lines.push(`command environment: ${names.length} variables from yours, plus ${[...own].join(' and ')}: ${names.join(' ') || '(none)'}`);
      if (safety.withheld.length > 0) lines.push(`  withheld (provider keys): ${safety.withheld.join(' ')}`);
    } catch (error) {
      if (!(error instanceof SafetySetupError)) throw error;
      problem(error.message);
    }
  }
  if (loaded) await describeMcpServers(loaded.config, { cwd: loaded.cwd, env }, lines, problem);
  if (loaded) describeSearch(loaded.config, env, lines, problem);
  const sandbox = sandboxDoctorReport({
    ...(input.platform ? { platform: input.platform } : {}),
    ...(input.diagnosis ? { diagnosis: input.diagnosis } : {}),
    ...(policy ? { policy } : {}),
  });
  if (sandbox.includes('UNAVAILABLE')) problems++;
  lines.push(sandbox);
  return { lines, problems };
}

/** Which rg the search tools run (or that they search in-process), and a choice that cannot be used. */
function describeSearch(config: LoadedConfig['config'], env: NodeJS.ProcessEnv, lines: string[], problem: (text: string) => void): void {
  configureRipgrep(config.ripgrep);
  const backend = searchBackend(env);
  const unusable = unusableRipgrepChoice(env);
  if (unusable) problem(`search: ${unusable}; searches would run in-process (slower): fix the path, or remove the setting`);
  else if (backend.kind === 'ripgrep') lines.push(`search: ripgrep ${backend.path} (${backend.source})`);
  else lines.push(`search: in-process, in a worker thread (${backend.reason})${backend.reason.startsWith('no bundled rg') ? '; install ripgrep (Debian/Ubuntu: apt install ripgrep) for faster searches' : ''}`);
}

/** The provider endpoint answers a request that spends no tokens (GET of its models list). */
async function describeReachability(provider: ProviderInfo, env: NodeJS.ProcessEnv, offline: boolean, lines: string[], problem: (text: string) => void): Promise<void> {
  if (offline) {
    lines.push('provider endpoint: not checked (--offline)');
    return;
  }
  const result = await checkReachability(provider, env);
  if (result.ok) lines.push(`provider endpoint: ${result.message}`);
  else problem(`provider endpoint: ${result.message} (rig doctor --offline skips this check)`);
}

function describeModel(loaded: LoadedConfig, env: NodeJS.ProcessEnv, lines: string[], problem: (text: string) => void): ProviderInfo | undefined {
  const config = loaded.config;
  if (config.model_provider === 'replay') {
    lines.push('provider: replay (a recorded rollout; nothing is sent)');
    return undefined;
  }
  let provider: ProviderInfo;
  try {
    provider = resolveProvider(config.model_provider, config.model_providers as Record<string, Partial<ProviderInfo>>, env);
  } catch (error) {
    problem(`provider: ${(error as Error).message}`);
    return undefined;
  }
  const key = provider.env_key;
  const keyState = key === undefined ? 'no API key needed' : env[key]?.trim() ? `${key} is set` : `${key} is NOT set`;
  lines.push(`provider: ${provider.id} (${provider.name}) at ${displayUrl(provider.base_url)}, wire ${provider.wire_api}; ${keyState}`);
  if (key !== undefined && !env[key]?.trim()) problem(`export ${key} to use ${provider.id}, or choose another provider with --provider`);
  const model = config.model ?? provider.default_model;
  if (model === undefined) {
    problem(`no model set for provider '${provider.id}': pass -m MODEL or set model = "..." in config.toml`);
    return provider;
  }
  lines.push(`model: ${model}${config.model ? '' : " (the provider's default)"}`);
  const choice = chooseHarness({
    provider: provider.id,
    providerName: provider.name,
    baseUrl: provider.base_url,
    model,
    wire: provider.wire_api,
    ...((config.harness ?? provider.harness) ? { configured: config.harness ?? provider.harness } : {}),
  });
  lines.push(`harness: ${choice.id} (${choice.reason})`);
  return provider;
}
