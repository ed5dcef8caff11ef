// A project's `.rig/config.toml` may only narrow the safety settings the user's own config gives
// (sandbox, approvals, writable roots, network, UNIX sockets, what reaches commands' environment).
// The file lives in the workspace, where a model writes: if it could widen them, one session could
// loosen the next (write `sandbox_mode = "danger-full-access"`, open a new session, run anything).
// A wider value is dropped with a warning, unless the user's config opts that project in with
// `[projects."<path>"] allow_wider_safety = true`.
import path from 'node:path';
import type { RigConfig } from './resolve.js';
import type { ConfigLayer } from './schema.js';

const SANDBOX_RANK: Record<string, number> = { 'read-only': 0, 'workspace-write': 1, 'danger-full-access': 2 };
const INHERIT_RANK: Record<string, number> = { none: 0, core: 1, all: 2 };
/** Literal variable names that look like credentials: a project naming one in include_only would pass it on. */
const CREDENTIAL_NAME = /KEY|SECRET|TOKEN|PASSW|CREDENTIAL/i;

function within(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** `untrusted` asks before anything that is not known to be safe; every other policy asks less. */
function approvalIsWider(project: ConfigLayer['approval_policy'], baseline: RigConfig['approval_policy']): boolean {
  return baseline === 'untrusted' && project !== undefined && project !== 'untrusted';
}

/**
 * Removes from `layer` (a project layer, validated) every safety setting wider than `baseline`
 * (the config as the user's own layers make it). Returns what was dropped, as `key = value (yours: x)`.
 */
export function narrowProjectLayer(layer: ConfigLayer, baseline: RigConfig): string[] {
  const dropped: string[] = [];
  const drop = (key: string, value: unknown, yours: unknown): void => {
    dropped.push(`${key} = ${JSON.stringify(value)} (yours: ${JSON.stringify(yours)})`);
  };

  if (layer.sandbox_mode !== undefined && (SANDBOX_RANK[layer.sandbox_mode] ?? 3) > (SANDBOX_RANK[baseline.sandbox_mode] ?? 0)) {
    drop('sandbox_mode', layer.sandbox_mode, baseline.sandbox_mode);
    delete layer.sandbox_mode;
  }
  if (approvalIsWider(layer.approval_policy, baseline.approval_policy)) {
    drop('approval_policy', layer.approval_policy, baseline.approval_policy);
    delete layer.approval_policy;
  }

  const sww = layer.sandbox_workspace_write;
  const base = baseline.sandbox_workspace_write;
  if (sww) {
    if (sww.writable_roots !== undefined) {
      const wider = sww.writable_roots.filter((root) => !base.writable_roots.some((allowed) => within(root, allowed)));
      if (wider.length > 0) {
        drop('sandbox_workspace_write.writable_roots', wider, base.writable_roots);
        sww.writable_roots = sww.writable_roots.filter((root) => !wider.includes(root));
      }
    }
    if (sww.network_access === true && !base.network_access) {
      drop('sandbox_workspace_write.network_access', true, false);
      delete sww.network_access;
    }
    if (sww.allow_unix_sockets === true && !base.allow_unix_sockets) {
      drop('sandbox_workspace_write.allow_unix_sockets', true, false);
      delete sww.allow_unix_sockets;
    }
    for (const key of ['exclude_tmpdir_env_var', 'exclude_slash_tmp'] as const) {
      if (sww[key] === false && base[key]) {
        drop(`sandbox_workspace_write.${key}`, false, true);
        delete sww[key];
      }
    }
  }

  const sep = layer.shell_environment_policy;
  const baseEnv = baseline.shell_environment_policy;
  if (sep) {
    if (sep.inherit !== undefined && (INHERIT_RANK[sep.inherit] ?? 3) > (INHERIT_RANK[baseEnv.inherit] ?? 0)) {
      drop('shell_environment_policy.inherit', sep.inherit, baseEnv.inherit);
      delete sep.inherit;
    }
    if (sep.ignore_default_excludes === true && !baseEnv.ignore_default_excludes) {
      drop('shell_environment_policy.ignore_default_excludes', true, false);
      delete sep.ignore_default_excludes;
    }
    // A list replaces the one below it when layers merge: keep the user's excludes in any case.
    if (sep.exclude !== undefined) sep.exclude = [...new Set([...baseEnv.exclude, ...sep.exclude])];
    if (sep.include_only !== undefined) {
      const credentials = sep.include_only.filter((name) => !/[*?]/.test(name) && CREDENTIAL_NAME.test(name));
      if (baseEnv.include_only.length > 0 || credentials.length > 0) {
        drop('shell_environment_policy.include_only', sep.include_only, baseEnv.include_only);
        delete sep.include_only;
      }
    }
  }
  return dropped;
}
