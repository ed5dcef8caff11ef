// Questions the model puts to the person (Codex's request_user_input, Claude Code's and Kimi's
// AskUserQuestion): one to four multiple-choice questions, asked through the approval channel so
// every front end that answers approvals can answer them, and shown as a user_input item.

export interface UserInputOption {
  label: string;
  /** What choosing it means (may be empty where the harness makes it optional). */
  description: string;
}

export interface UserInputQuestion {
  /** Unique within the request: answers are keyed by it. */
  id: string;
  /** A short tag for the question (may be empty). */
  header: string;
  question: string;
  options: UserInputOption[];
  /** More than one option may be picked. */
  multi_select: boolean;
  /** The person may type an answer of their own instead of picking one (Codex's isOther). */
  allow_other: boolean;
}

/**
 * The model asks the person. Answer with `approve` and `content` holding UserInputAnswers, `deny`
 * (the person declined to answer; the model is told), or `abort` (stop the turn).
 */
export interface UserInputApprovalRequest {
  kind: 'user_input';
  id: string;
  /** The user_input item this request belongs to. */
  item_id: string;
  /** The tool the model called (request_user_input, AskUserQuestion). */
  tool: string;
  questions: UserInputQuestion[];
  agent_path?: string;
  agent_thread_id?: string;
}

/** One question's answer: the labels picked, and/or the person's own words. */
export interface UserInputAnswer {
  selected: string[];
  other?: string;
}

/** Question id -> answer. A question left out was skipped. */
export type UserInputAnswers = Record<string, UserInputAnswer>;

/**
 * rig: a question to the person and its answer. `rig exec --json` shows it as an mcp_tool_call of
 * server "rig" (a type Codex SDK clients know); the model's call and the answer it got are in the
 * rollout as the tool call and its output.
 */
export interface UserInputItem {
  id: string;
  type: 'user_input';
  tool: string;
  questions: UserInputQuestion[];
  answers: UserInputAnswers | null;
  /** declined: the person closed it without answering; failed: nobody could answer, or the turn ended. */
  status: 'in_progress' | 'completed' | 'failed' | 'declined';
  error: { message: string } | null;
}

/** Reads an approve's `content` as answers, keeping only well-formed entries for known questions. */
export function readUserInputAnswers(content: Record<string, unknown> | undefined, questions: readonly UserInputQuestion[]): UserInputAnswers {
  const answers: UserInputAnswers = {};
  for (const question of questions) {
    const raw = content?.[question.id];
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) continue;
    const record = raw as { selected?: unknown; other?: unknown };
    const selected = Array.isArray(record.selected) ? record.selected.filter((label): label is string => typeof label === 'string') : [];
    const other = typeof record.other === 'string' && record.other.trim() !== '' ? record.other.trim() : undefined;
    if (selected.length === 0 && other === undefined) continue;
    answers[question.id] = { selected, ...(other !== undefined ? { other } : {}) };
  }
  return answers;
}

/** Plain strings (an app-server client's, an editor's): an option's label picks it, anything else is the person's own words. */
export function answerFromStrings(question: UserInputQuestion, values: readonly string[]): UserInputAnswer {
  const labels = new Set(question.options.map((option) => option.label));
  const selected = values.filter((value) => labels.has(value));
  const own = values.filter((value) => !labels.has(value) && value.trim() !== '').map((value) => value.trim().replace(/^user_note:\s*/, ''));
  return { selected, ...(own.length > 0 ? { other: own.join('\n') } : {}) };
}

/** One line per answer, for people reading a transcript. */
export function describeUserInputAnswer(answer: UserInputAnswer | undefined): string {
  if (!answer) return '(skipped)';
  return [...answer.selected, ...(answer.other !== undefined ? [`"${answer.other}"`] : [])].join(', ');
}
