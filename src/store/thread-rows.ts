// The threads table's rows as rig reads and writes them: the SQL row shape, the public ThreadRow,
// and the conversions between them (objects for single rows, arrays for listings of thousands).

export interface ThreadUsageTotals {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
}

export interface ThreadRow {
  id: string;
  rolloutPath: string;
  cwd: string;
  title: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds: the rollout file's last write. */
  updatedAt: number;
  model: string | null;
  modelProvider: string | null;
  harness: string | null;
  archived: boolean;
  archivedAt: number | null;
  usage: ThreadUsageTotals;
  gitBranch: string | null;
  gitSha: string | null;
  forkedFromId: string | null;
  /** Set for a sub-agent's thread: the thread that spawned it, its task path and role. */
  parentThreadId: string | null;
  agentPath: string | null;
  agentRole: string | null;
}


export interface DbRow {
  id: string;
  rollout_path: string;
  cwd: string;
  title: string;
  created_at: number;
  updated_at: number;
  model: string | null;
  model_provider: string | null;
  harness: string | null;
  archived: number;
  archived_at: number | null;
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  git_branch: string | null;
  git_sha: string | null;
  forked_from_id: string | null;
  parent_thread_id: string | null;
  agent_path: string | null;
  agent_role: string | null;
  file_size: number;
  file_mtime_ms: number;
}

export const UPSERT_SQL = `INSERT INTO threads (id, rollout_path, cwd, title, created_at, updated_at, model, model_provider,
  harness, archived, archived_at, input_tokens, cached_input_tokens, output_tokens, reasoning_output_tokens,
  git_branch, git_sha, forked_from_id, parent_thread_id, agent_path, agent_role, file_size, file_mtime_ms)
  VALUES (@id, @rollout_path, @cwd, @title, @created_at, @updated_at, @model, @model_provider, @harness, @archived,
  @archived_at, @input_tokens, @cached_input_tokens, @output_tokens, @reasoning_output_tokens, @git_branch, @git_sha,
  @forked_from_id, @parent_thread_id, @agent_path, @agent_role, @file_size, @file_mtime_ms)
  ON CONFLICT(id) DO UPDATE SET rollout_path=excluded.rollout_path, cwd=excluded.cwd, title=excluded.title,
  created_at=excluded.created_at, updated_at=excluded.updated_at, model=excluded.model,
  model_provider=excluded.model_provider, harness=excluded.harness, archived=excluded.archived,
  archived_at=excluded.archived_at, input_tokens=excluded.input_tokens, cached_input_tokens=excluded.cached_input_tokens,
  output_tokens=excluded.output_tokens, reasoning_output_tokens=excluded.reasoning_output_tokens,
  git_branch=excluded.git_branch, git_sha=excluded.git_sha, forked_from_id=excluded.forked_from_id,
  parent_thread_id=excluded.parent_thread_id, agent_path=excluded.agent_path, agent_role=excluded.agent_role,
  file_size=excluded.file_size, file_mtime_ms=excluded.file_mtime_ms`;

export type KnownRow = Pick<DbRow, 'id' | 'rollout_path' | 'file_size' | 'file_mtime_ms' | 'archived_at'>;
export type KnownRowValues = [string, string, number, number, number | null];

export function toThreadRow(row: DbRow): ThreadRow {
  return {
    id: row.id,
    rolloutPath: row.rollout_path,
    cwd: row.cwd,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    model: row.model,
    modelProvider: row.model_provider,
    harness: row.harness,
    archived: row.archived !== 0,
    archivedAt: row.archived_at,
    usage: {
      input_tokens: row.input_tokens,
      cached_input_tokens: row.cached_input_tokens,
      output_tokens: row.output_tokens,
      reasoning_output_tokens: row.reasoning_output_tokens,
    },
    gitBranch: row.git_branch,
    gitSha: row.git_sha,
    forkedFromId: row.forked_from_id,
    parentThreadId: row.parent_thread_id ?? null,
    agentPath: row.agent_path ?? null,
    agentRole: row.agent_role ?? null,
  };
}

export const LISTED_COLUMNS = [
  'id', 'rollout_path', 'cwd', 'title', 'created_at', 'updated_at', 'model', 'model_provider', 'harness', 'archived',
  'archived_at', 'input_tokens', 'cached_input_tokens', 'output_tokens', 'reasoning_output_tokens', 'git_branch',
  'git_sha', 'forked_from_id', 'parent_thread_id', 'agent_path', 'agent_role',
] as const;
export type ListedRowValues = [
  string, string, string, string, number, number, string | null, string | null, string | null, number,
  number | null, number, number, number, number, string | null, string | null, string | null,
  string | null, string | null, string | null,
];

export function threadRowFromValues(v: ListedRowValues): ThreadRow {
  return {
    id: v[0],
    rolloutPath: v[1],
    cwd: v[2],
    title: v[3],
    createdAt: v[4],
    updatedAt: v[5],
    model: v[6],
    modelProvider: v[7],
    harness: v[8],
    archived: v[9] !== 0,
    archivedAt: v[10],
    usage: {
      input_tokens: v[11],
      cached_input_tokens: v[12],
      output_tokens: v[13],
      reasoning_output_tokens: v[14],
    },
    gitBranch: v[15],
    gitSha: v[16],
    forkedFromId: v[17],
    parentThreadId: v[18],
    agentPath: v[19],
    agentRole: v[20],
  };
}

