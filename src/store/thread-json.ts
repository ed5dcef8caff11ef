// A thread as `rig sessions list --json` prints it: the public shape, built two ways that must
// agree byte for byte. threadJson() serves single rows; THREAD_JSON_SQL lets SQLite write each
// listed thread's JSON text itself, so listing thousands of threads builds one string per thread
// instead of an array of columns, a ThreadRow and a JSON object (and the garbage they leave).
import type { ThreadRow } from './thread-rows.js';

export interface ThreadJson {
  id: string;
  title: string;
  cwd: string;
  created_at: string;
  updated_at: string;
  model: string | null;
  model_provider: string | null;
  harness: string | null;
  archived: boolean;
  archived_at: string | null;
  usage: ThreadRow['usage'];
  git_branch: string | null;
  git_sha: string | null;
  forked_from_id: string | null;
  parent_thread_id: string | null;
  agent_path: string | null;
  agent_role: string | null;
  rollout_path: string;
}

export function threadJson(row: ThreadRow): ThreadJson {
  return {
    id: row.id,
    title: row.title,
    cwd: row.cwd,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
    model: row.model,
    model_provider: row.modelProvider,
    harness: row.harness,
    archived: row.archived,
    archived_at: row.archivedAt === null ? null : new Date(row.archivedAt).toISOString(),
    usage: row.usage,
    git_branch: row.gitBranch,
    git_sha: row.gitSha,
    forked_from_id: row.forkedFromId,
    parent_thread_id: row.parentThreadId,
    agent_path: row.agentPath,
    agent_role: row.agentRole,
    rollout_path: row.rolloutPath,
  };
}

/**
 * threadJson() as an SQL expression over the threads table: same keys in the same order, and
 * SQLite's json_object escapes strings exactly as JSON.stringify does (checked by a test). The
 * *_iso columns are the times already formatted as toISOString() does (schema 4).
 */
export const THREAD_JSON_SQL = `json_object(
  'id', id, 'title', title, 'cwd', cwd, 'created_at', created_iso, 'updated_at', updated_iso,
  'model', model, 'model_provider', model_provider, 'harness', harness,
  'archived', json(CASE archived WHEN 0 THEN 'false' ELSE 'true' END),
  'archived_at', archived_iso,
  'usage', json_object('input_tokens', input_tokens, 'cached_input_tokens', cached_input_tokens,
    'output_tokens', output_tokens, 'reasoning_output_tokens', reasoning_output_tokens),
  'git_branch', git_branch, 'git_sha', git_sha, 'forked_from_id', forked_from_id,
  'parent_thread_id', parent_thread_id, 'agent_path', agent_path, 'agent_role', agent_role, 'rollout_path', rollout_path)`;
