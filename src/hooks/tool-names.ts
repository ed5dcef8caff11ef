// The names a hook matcher may use for one tool call. Hook files are written for one harness's
// tool names (Claude Code's `Edit|Write`, Codex's `apply_patch`, Qwen Code's `write_file`), while
// rig may present any harness: every call therefore matches its own name, its family's canonical
// (Claude Code) name, every other harness's name for the same family, and Codex's cross aliases
// (an apply_patch call may edit or write, so it also answers to `Edit` and `Write`, and they to it).
// The name written on the hook's stdin stays one stable name: Codex's for Codex's own tools
// (`Bash` for every shell tool of the native harness, `apply_patch`), the called name otherwise.

interface Family {
  canonical: string;
  /** Every harness's name for tools of this family. */
  names: readonly string[];
  /** Engine capability ids (harness profiles) of this family. */
  capabilities: readonly string[];
  /** Names of other families a call of this one also matches. */
  cross?: readonly string[];
}

const FAMILIES: readonly Family[] = [
  {
    canonical: 'Bash',
    names: ['Bash', 'bash', 'Shell', 'shell', 'run_shell_command', 'exec_shell', 'exec_command', 'shell_command', 'local_shell'],
    capabilities: ['shell.bash', 'native.exec_command', 'native.shell_command'],
  },
  {
    canonical: 'Edit',
    names: ['Edit', 'MultiEdit', 'edit', 'StrReplaceFile', 'edit_file', 'replace', 'str_replace_editor', 'str_replace_based_edit_tool'],
    capabilities: ['fs.edit', 'fs.str_replace_editor'],
    cross: ['apply_patch'],
  },
  {
    canonical: 'Write',
    names: ['Write', 'write', 'write_file', 'WriteFile', 'create_file'],
    capabilities: ['fs.write'],
    cross: ['apply_patch'],
  },
  {
    canonical: 'apply_patch',
    names: ['apply_patch'],
    capabilities: ['native.apply_patch', 'fs.apply_unified_diff'],
    cross: ['Edit', 'Write'],
  },
  { canonical: 'NotebookEdit', names: ['NotebookEdit', 'notebook_edit'], capabilities: ['fs.notebook_edit'], cross: ['Edit'] },
  { canonical: 'Read', names: ['Read', 'read', 'read_file', 'ReadFile', 'view'], capabilities: ['fs.read'] },
  { canonical: 'Glob', names: ['Glob', 'glob', 'find_files'], capabilities: ['fs.glob'] },
  { canonical: 'Grep', names: ['Grep', 'grep', 'grep_search', 'grep_files', 'search_file_content'], capabilities: ['fs.grep'] },
  { canonical: 'LS', names: ['LS', 'ls', 'list_dir', 'list_directory'], capabilities: ['fs.ls'] },
  { canonical: 'WebFetch', names: ['WebFetch', 'webfetch', 'web_fetch', 'FetchURL', 'fetch_url'], capabilities: ['web.fetch'] },
  { canonical: 'WebSearch', names: ['WebSearch', 'websearch', 'web_search', 'google_web_search'], capabilities: ['web.search'] },
  { canonical: 'Agent', names: ['Agent', 'Task', 'task', 'agent', 'spawn_agent'], capabilities: ['agent.spawn', 'native.spawn_agent'] },
  { canonical: 'TodoWrite', names: ['TodoWrite', 'todowrite', 'SetTodoList', 'TodoList', 'update_plan'], capabilities: ['plan.todo', 'native.update_plan'] },
  { canonical: 'Skill', names: ['Skill', 'skill', 'load_skill'], capabilities: ['skill.load'] },
  { canonical: 'AskUserQuestion', names: ['AskUserQuestion', 'request_user_input'], capabilities: ['user.ask'] },
];

/** Codex's own tools keep Codex's stdin names (hook_names.rs). */
const CODEX_STDIN_NAMES: Record<string, string> = {
  'native.exec_command': 'Bash',
  'native.shell_command': 'Bash',
  'native.apply_patch': 'apply_patch',
  'native.spawn_agent': 'spawn_agent',
};

export interface HookToolIdentity {
  /** The `tool_name` written on the hook's stdin. */
  name: string;
  /** Further names a matcher may use to select this call (never written on stdin). */
  aliases: string[];
}

function familyOf(toolName: string, capability: string | undefined): Family | undefined {
  if (capability !== undefined) {
    const byCapability = FAMILIES.find((f) => f.capabilities.includes(capability));
    if (byCapability) return byCapability;
  }
  return FAMILIES.find((f) => f.names.includes(toolName));
}

/**
 * The hook identity of a call of `toolName` (the name the model called), bound to the engine
 * capability `capability` when the caller knows it (a harness profile's tool binding). MCP tools
 * (`mcp__server__tool`) and unknown tools match only their own name.
 */
export function hookToolIdentity(toolName: string, capability?: string): HookToolIdentity {
  const name = (capability !== undefined ? CODEX_STDIN_NAMES[capability] : undefined) ?? toolName;
  const family = familyOf(toolName, capability);
  const aliases = new Set<string>([toolName]);
  if (family) {
    for (const n of family.names) aliases.add(n);
    for (const n of family.cross ?? []) aliases.add(n);
  }
  aliases.delete(name);
  return { name, aliases: [...aliases] };
}

/** Matcher inputs of a call: its stdin name first, then the aliases. */
export function matcherInputsFor(identity: HookToolIdentity): string[] {
  return [identity.name, ...identity.aliases];
}
