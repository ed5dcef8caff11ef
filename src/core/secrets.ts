// Every secret a session knows about, collected in one place: the session feeds them to the
// rollout redactor and the command environment, the front ends to their output, and `rig sandbox`
// / `rig doctor` to what they show, so all of them agree on what never leaves rig.
//
// Secrets are: the API key variables of every built-in and every configured provider (whichever is
// active: a key for another provider is still a key), the variables named by `env_http_headers`
// and their values, the values of `http_headers` and `query_params`, the user and password of a
// `user:pass@` base URL, and environment values whose names look like credentials.
import type { RigConfig } from '../config/index.js';
import { BUILTIN_PROVIDERS, type ProviderInfo } from '../model/index.js';
import { secretValuesFromEnv } from '../store/index.js';

export interface SessionSecrets {
  /** Env variables that never reach a model-run command unless the user names them in `set`/`include_only`. */
  protectedVars: string[];
  /** Values replaced by "[redacted]" in rollouts, stderr and --json output. */
  values: string[];
}

type ProviderLike = Partial<Pick<ProviderInfo, 'env_key' | 'base_url' | 'http_headers' | 'env_http_headers' | 'query_params'>>;

/** The OpenAI provider also takes its key from the Codex SDK's variable. */
const ALSO_PROTECTED = ['CODEX_API_KEY'];

export function collectSessionSecrets(
  config: Pick<RigConfig, 'model_providers' | 'shell_environment_policy'> & { openai_base_url?: string },
  env: NodeJS.ProcessEnv,
  active?: ProviderLike,
): SessionSecrets {
  const providers: ProviderLike[] = [
    ...Object.values(BUILTIN_PROVIDERS),
    ...(Object.values(config.model_providers) as ProviderLike[]),
    ...(active ? [active] : []),
  ];
  const protectedVars = new Set<string>(ALSO_PROTECTED);
  const values: string[] = [];
  for (const provider of providers) {
    if (typeof provider.env_key === 'string' && provider.env_key !== '') protectedVars.add(provider.env_key);
    for (const variable of Object.values(provider.env_http_headers ?? {})) protectedVars.add(variable);
    values.push(...Object.values(provider.http_headers ?? {}), ...Object.values(provider.query_params ?? {}));
    values.push(...urlCredentials(provider.base_url));
  }
  values.push(...urlCredentials(config.openai_base_url), ...urlCredentials(env['OPENAI_BASE_URL']));
  for (const name of protectedVars) {
    const value = env[name];
    if (value) values.push(value);
  }
  values.push(...secretValuesFromEnv(env, config.shell_environment_policy.exclude));
  return { protectedVars: [...protectedVars].sort(), values: [...new Set(values.filter((v) => typeof v === 'string' && v !== ''))] };
}

/** `pass` and `user:pass` of a `scheme://user:pass@host` URL, raw and percent-decoded (the user name alone is not secret). */
function urlCredentials(url: string | undefined): string[] {
  if (!url) return [];
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*)@/i.exec(url)?.[1];
  if (!userinfo?.includes(':')) return [];
  const password = userinfo.slice(userinfo.indexOf(':') + 1);
  const decode = (text: string): string => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  return [userinfo, password, decode(userinfo), decode(password)].filter((part) => part !== '');
}
