// "Allow and don't ask me again" for an MCP tool: `[mcp_servers.S.tools.T] approval_mode =
// "approve"` written into the config file that defines the server — the user's config.toml, or the
// trusted project's .rig/config.toml for a project server (as Codex does) — with the comment-
// preserving editor. A server that no file defines as a whole (a `-c` override, a profile) is not
// written anywhere: a partial [mcp_servers.S] table would leave config.toml invalid.
import fs from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { editConfigFile, setTomlTable } from '../config/toml-edit.js';
import { persistentApprovalEdit } from './approval.js';

export type PersistOutcome = { ok: true; file: string } | { ok: false; problem: string };

/** `files`: the config files that were applied, lowest precedence first (LoadedConfig.files). */
export function persistToolApproval(files: readonly string[], server: string, tool: string): PersistOutcome {
  const file = [...files].reverse().find((candidate) => definesServer(candidate, server));
  if (!file) {
    return {
      ok: false,
      problem: `MCP server "${server}" is not defined by a config file rig can edit (it comes from a profile or a -c override), so the approval was kept for this session only`,
    };
  }
  const edit = persistentApprovalEdit(server, tool);
  try {
    editConfigFile(file, (text) => setTomlTable(text, edit.path, edit.value));
  } catch (error) {
    return { ok: false, problem: `${error instanceof Error ? error.message : String(error)}; the approval was kept for this session only` };
  }
  return { ok: true, file };
}

function definesServer(file: string, server: string): boolean {
  let parsed: Record<string, unknown>;
  try {
    parsed = parseToml(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return false;
  }
  const table = (parsed['mcp_servers'] as Record<string, Record<string, unknown>> | undefined)?.[server];
  return typeof table === 'object' && table !== null && (table['command'] !== undefined || table['url'] !== undefined);
}
