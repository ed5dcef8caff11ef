// The effective config as a front end shows it (app-server's config/read): the merged values for
// a directory, keyed as in config.toml, and the files that made them, each with what it set. Every
// secret the config names (provider header values, query parameters, credential variables) is
// redacted, so a client can display it without leaking keys.
import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { loadConfig, resolveRigHome } from '../config/index.js';
import { createRedactor } from '../store/index.js';
import { collectSessionSecrets } from './secrets.js';

export interface ConfigFileLayer {
  file: string;
  /** The file's own table (redacted), or undefined when it no longer parses. */
  values: Record<string, unknown> | undefined;
  /** RIG_HOME's config.toml or a profile file is the user's; .rig/config.toml a project's. */
  kind: 'user' | 'project';
}

export interface EffectiveConfig {
  config: Record<string, unknown>;
  cwd: string;
  layers: ConfigFileLayer[];
  warnings: string[];
}

export function readEffectiveConfig(io: { env: NodeJS.ProcessEnv; cwd: string; home?: string }): EffectiveConfig {
  const home = io.home ?? resolveRigHome(io.env);
  const loaded = loadConfig({ home, cwd: io.cwd, env: io.env });
  const redactor = createRedactor(collectSessionSecrets(loaded.config, io.env).values);
  const redact = <T>(value: T): T => JSON.parse(redactor.redactJson(JSON.stringify(value))) as T;
  return {
    config: redact(loaded.config as unknown as Record<string, unknown>),
    cwd: loaded.cwd,
    layers: loaded.files.map((file) => ({
      file,
      values: readLayer(file, redact),
      kind: file.startsWith(home) ? 'user' : 'project',
    })),
    warnings: loaded.warnings,
  };
}

function readLayer(file: string, redact: <T>(value: T) => T): Record<string, unknown> | undefined {
  try {
    return redact(parseToml(readFileSync(file, 'utf8')) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}
