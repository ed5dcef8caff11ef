// `rig doctor`: what rig would do here and whether it can. The sandbox diagnosis plus the facts
// users need when something does not work: where RIG_HOME is, which config files were read and
// whether they are valid, the provider and whether its key is set (never the key itself), the
// harness it would present, and the runtime.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type LoadedConfig } from '../../config/index.js';
import { resolveRigHome } from '../../config/index.js';
import { sandboxDoctorReport, SandboxPolicyError, type BwrapDiagnosis } from '../../exec/sandbox/index.js';
import { chooseHarness } from '../../harness/index.js';
import { checkReachability, displayUrl, resolveProvider, type ProviderInfo } from '../../model/index.js';
import type { SessionFlags } from '../../core/settings.js';
import { rigVersion } from '../../core/version.js';
import { loadSafetyConfig, sandboxPolicyFor } from './settings.js';

export interface DoctorInput {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  config?: string[];
  /** The shared command-line options doctor honours (-p, -m, --provider, --harness, -C, -s, --add-dir). */
  flags?: SessionFlags;
  /** --offline: do not contact the provider. */
  offline?: boolean;
  stdout?: (text: string) => void;
  platform?: NodeJS.Platform;
  /** Tests: a fixed bubblewrap diagnosis. */
  diagnosis?: () => BwrapDiagnosis;
}

/** Prints the report; 0 when rig can work here, 1 when something needs fixing (listed as PROBLEM). */
export async function runDoctor(input: DoctorInput = {}): Promise<number> {
  const env = input.env ?? process.env;
  const cwd = input.cwd ?? process.cwd();
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
    const flags = input.flags ?? {};
    loaded = loadSafetyConfig({
      env,
      cwd,
      ...(input.config ? { overrides: input.config } : {}),
      ...(flags.addDir ? { addDirs: flags.addDir } : {}),
      ...(flags.profile ? { profile: flags.profile } : {}),
      ...(flags.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
      flags: {
        ...(flags.model ? { model: flags.model } : {}),
        ...(flags.provider ? { provider: flags.provider } : {}),
        ...(flags.harness ? { harness: flags.harness } : {}),
        ...(flags.sandbox ? { sandbox: flags.sandbox } : {}),
        ...(flags.cd ? { cwd: flags.cd } : {}),
      },
    }).loaded;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problem(`config is invalid: ${error.message}`);
  }
  const userConfig = path.join(home, 'config.toml');
  if (loaded) {
    if (loaded.files.length === 0) lines.push(`config: no config files (defaults); user config would be ${userConfig}`);
    for (const file of loaded.files) lines.push(`config: ${file} (valid)`);
    for (const warning of loaded.warnings) lines.push(`  warning: ${warning}`);
    const provider = describeModel(loaded, env, lines, problem);
    if (provider) await describeReachability(provider, env, Boolean(input.offline), lines, problem);
  }

  let policy;
  if (loaded) {
    try {
      policy = sandboxPolicyFor(loaded, loaded.config.sandbox_mode, env);
    } catch (error) {
      if (!(error instanceof SandboxPolicyError)) throw error;
      problem(error.message);
    }
    const approval = loaded.config.approval_policy;
    lines.push(`approval policy: ${typeof approval === 'string' ? approval : 'granular'} (interactive sessions; rig exec never asks)`);
  }
  const sandbox = sandboxDoctorReport({
    ...(input.platform ? { platform: input.platform } : {}),
    ...(input.diagnosis ? { diagnosis: input.diagnosis } : {}),
    ...(policy ? { policy } : {}),
  });
  if (sandbox.includes('UNAVAILABLE')) problems++;
  lines.push(sandbox);

  (input.stdout ?? ((text: string) => void process.stdout.write(text)))(`${lines.join('\n')}\n`);
  return problems > 0 ? 1 : 0;
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
