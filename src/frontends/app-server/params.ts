// What a client's params mean to the engine: thread start/resume/fork overrides, the `config`
// map (dotted keys -> JSON values, applied as `-c key=value`), user input, sandbox policies.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ThreadStartRequest } from '../../core/engine.js';
import type { SettingsUpdate, UserInput as RigInput } from '../../protocol/index.js';
import { ERROR_CODES, type ParamsOf, type SandboxMode, type SandboxPolicy, type UserInput } from '../../protocol/app-server/index.js';
import { RpcError } from './connection.js';

type ApprovalName = 'untrusted' | 'on-request' | 'on-failure' | 'never';

interface ThreadOverrideParams {
  model?: string | null | undefined;
  modelProvider?: string | null | undefined;
  cwd?: string | null | undefined;
  approvalPolicy?: ParamsOf<'thread/start'>['approvalPolicy'];
  sandbox?: SandboxMode | null | undefined;
  config?: Record<string, unknown> | null | undefined;
}

export function approvalName(policy: ThreadOverrideParams['approvalPolicy']): ApprovalName | undefined {
  if (policy === null || policy === undefined) return undefined;
  if (typeof policy === 'string') return policy;
  throw new RpcError(ERROR_CODES.invalidParams, 'approvalPolicy: rig takes a granular policy only from config.toml (approval_policy = { granular = ... }); send "untrusted", "on-request" or "never"');
}

/** The engine's start request for thread/start, resume and fork params. */
export function threadRequest(
  params: ThreadOverrideParams & { ephemeral?: boolean | null | undefined },
  server: { cwd: string; config: readonly string[] },
  extraConfig: string[] = [],
): ThreadStartRequest {
  const approval = approvalName(params.approvalPolicy);
  // The server's own -c first, then the client's config map, then what rig/ methods pin.
  const config = [...server.config, ...configOverrides(params.config ?? {}), ...extraConfig];
  return {
    cwd: server.cwd,
    ...(params.cwd ? { cd: params.cwd } : {}),
    ...(config.length ? { config } : {}),
    overrides: {
      ...(params.model ? { model: params.model } : {}),
      ...(params.modelProvider ? { provider: params.modelProvider } : {}),
      ...(params.sandbox ? { sandbox: params.sandbox } : {}),
      ...(approval ? { approvalPolicy: approval } : {}),
    },
    ...(params.ephemeral ? { ephemeral: true } : {}),
    // A connected client answers approval requests.
    canAskApproval: true,
    originator: 'rig_app_server',
  };
}

/** `{"a.b": value}` as `-c a.b=<TOML>` strings, in order. */
export function configOverrides(config: Record<string, unknown>): string[] {
  return Object.entries(config).map(([key, value]) => {
    if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(key)) {
      throw new RpcError(ERROR_CODES.invalidParams, `config: "${key}" is not a dotted config key (e.g. "sandbox_workspace_write.network_access")`);
    }
    return `${key}=${toToml(value, key)}`;
  });
}

function toToml(value: unknown, key: string): string {
  if (value === null || value === undefined) throw new RpcError(ERROR_CODES.invalidParams, `config: "${key}" is null; leave the key out to keep the configured value`);
  // JSON's string escapes are all valid in a TOML basic string.
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => toToml(v, key)).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)} = ${toToml(v, `${key}.${k}`)}`);
    return `{${entries.join(', ')}}`;
  }
  throw new RpcError(ERROR_CODES.invalidParams, `config: "${key}" has a value TOML cannot hold`);
}

/**
 * The protocol's input list as one engine input: text parts joined by blank lines, local images
 * by path, data-URL images written to a temp file, skills and mentions as `[name](path)` text.
 */
export function engineInput(input: readonly UserInput[]): RigInput {
  const texts: string[] = [];
  const images: string[] = [];
  for (const part of input) {
    switch (part.type) {
      case 'text':
        texts.push(part.text);
        break;
      case 'localImage':
        images.push(part.path);
        break;
      case 'image':
        images.push(imageFromUrl(part.url));
        break;
      case 'skill':
      case 'mention':
        texts.push(`[${part.name}](${part.path})`);
        break;
    }
  }
  return { text: texts.join('\n\n'), ...(images.length ? { images } : {}) };
}

function imageFromUrl(url: string): string {
  const match = /^data:image\/([a-z0-9.+-]+);base64,(.*)$/is.exec(url);
  if (!match) throw new RpcError(ERROR_CODES.invalidParams, 'input: an image must be a data: URL (image/<type>;base64) or a localImage with a path; rig does not fetch remote images');
  const dir = mkdtempSync(join(tmpdir(), 'rig-app-server-image-'));
  const file = join(dir, `image.${match[1]!.toLowerCase().replace('jpeg', 'jpg')}`);
  writeFileSync(file, Buffer.from(match[2]!, 'base64'));
  return file;
}

/** turn/start's sandboxPolicy as the thread's sandbox mode. */
export function sandboxModeOf(policy: SandboxPolicy): SandboxMode {
  switch (policy.type) {
    case 'readOnly':
      return 'read-only';
    case 'workspaceWrite':
      return 'workspace-write';
    case 'dangerFullAccess':
    case 'externalSandbox':
      // externalSandbox: the client sandboxes the process itself, so rig adds none.
      return 'danger-full-access';
  }
}

/** turn/start's overrides as a settings update (empty when there are none). */
export function turnSettings(params: ParamsOf<'turn/start'>): SettingsUpdate {
  const approval = approvalName(params.approvalPolicy);
  return {
    ...(params.model ? { model: params.model } : {}),
    ...(params.effort ? { reasoning_effort: params.effort } : {}),
    ...(approval ? { approval_policy: approval } : {}),
    ...(params.sandboxPolicy ? { sandbox_mode: sandboxModeOf(params.sandboxPolicy) } : {}),
  };
}
