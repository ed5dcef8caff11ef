// The capability ids harness profiles bind their tools to, and the binding of a loaded profile to
// ToolSpecs. Native capabilities (native.*) are supplied by the caller from src/tools/native.
import { bindProfileTools, findProfile, type ProfileSearchOptions } from '../../harness/loader.js';
import type { CapabilityRegistry, HarnessProfile, ToolFactory } from '../../harness/profile.js';
import type { ToolSpec } from '../spec.js';
import { createEditTool } from './edit.js';
import { createGitTool } from './git.js';
import { createFileSearchTool, createGlobTool, createListDirTool } from './glob.js';
import { createGrepTool } from './grep.js';
import { createEvidenceTool, createToolCallTool, createToolSearchTool } from './meta.js';
import {
  createChecklistTool,
  createEnterPlanModeTool,
  createExitPlanModeTool,
  createTodoReadTool,
  createTodoTool,
} from './plan.js';
import { createReadMediaTool, createReadTool } from './read.js';
import { createBashTool, createTaskListTool, createTaskOutputTool, createTaskStopTool } from './shell.js';
import { createStrReplaceEditorTool } from './str-replace-editor.js';
import { createSubmitTool } from './submit.js';
import { createTmuxTool } from './terminal.js';
import { createUnifiedDiffTool } from './unified-diff.js';
import { createWriteTool } from './write.js';
import { observeFileTool } from './observe.js';
import { agentCapabilities } from '../agents/harness-capabilities.js';
import { jobCapabilities } from '../jobs/capabilities.js';
import { timerCapabilities } from '../timers/tools.js';
import { createSkillTool } from './skill.js';
import { createWebFetchTool } from './web-fetch.js';
import { createNotebookEditTool } from './notebook.js';
import { createWebSearchTool } from './web-search.js';
import { createEnterWorktreeTool, createExitWorktreeTool } from '../worktree/tools.js';
import { goalCapabilities } from '../goals/tools.js';
import { createAskUserTool } from './ask-user/index.js';

/** Every capability implemented here except tool.call, which needs the other bound tools. */
export function harnessCapabilities(): Map<string, ToolFactory<ToolSpec>> {
  return new Map<string, ToolFactory<ToolSpec>>([
    ['shell.bash', createBashTool],
    ['shell.task_output', createTaskOutputTool],
    ['shell.task_stop', createTaskStopTool],
    ['shell.task_list', createTaskListTool],
    ['shell.git', createGitTool],
    // Reads and searches without a shell show up as file_tool items (observe.ts).
    ['fs.read', observeFileTool(createReadTool, 'read')],
    ['fs.read_media', observeFileTool(createReadMediaTool, 'read')],
    ['fs.write', createWriteTool],
    ['fs.edit', createEditTool],
    ['fs.notebook_edit', createNotebookEditTool],
    ['fs.grep', observeFileTool(createGrepTool, 'search')],
    ['fs.glob', observeFileTool(createGlobTool, 'search')],
    ['fs.ls', observeFileTool(createListDirTool, 'list')],
    ['fs.file_search', observeFileTool(createFileSearchTool, 'search')],
    ['fs.apply_unified_diff', createUnifiedDiffTool],
    ['fs.str_replace_editor', createStrReplaceEditorTool],
    ['terminal.tmux', createTmuxTool],
    ['swe.submit', createSubmitTool],
    ['plan.todo', createTodoTool],
    ['plan.todo_read', createTodoReadTool],
    ['plan.checklist', createChecklistTool],
    ['plan.enter', createEnterPlanModeTool],
    ['plan.exit', createExitPlanModeTool],
    ['tool.search', createToolSearchTool],
    ['notes.evidence', createEvidenceTool],
    ...agentCapabilities(),
    ...jobCapabilities(),
    ...timerCapabilities(),
    ['skill.load', createSkillTool],
    ['web.fetch', createWebFetchTool],
    ['web.search', createWebSearchTool],
    ['worktree.enter', createEnterWorktreeTool],
    ['worktree.exit', createExitWorktreeTool],
    ...goalCapabilities(),
    ['user.ask', createAskUserTool],
  ]);
}

/** The native capability ids a profile may use; the caller provides their factories. */
export const NATIVE_CAPABILITY_IDS = [
  'native.exec_command',
  'native.write_stdin',
  'native.shell',
  'native.shell_command',
  'native.apply_patch',
  'native.update_plan',
  'native.view_image',
] as const;

export interface BoundHarness {
  /** Every tool of the profile, in profile order (advertised, deferred and hidden). */
  all: ToolSpec[];
  /** Sent in every request. */
  advertised: ToolSpec[];
  /** Sent once loaded through tool search (see loadedDeferredTools in meta.ts). */
  deferred: ToolSpec[];
  byName: Map<string, ToolSpec>;
  /** Tools of the original rig cannot honestly provide: never sent, never callable (omittedTools). */
  omitted: OmittedTool[];
}

/**
 * The capability a profile declares a tool of the original with when rig cannot run it: the tool
 * is left out of every request (and out of tool search) and listed as omitted, with
 * `options.reason` saying why. Every other tool has a real handler, or the profile fails to load.
 */
export const OMITTED_CAPABILITY = 'unavailable';

export interface OmittedTool {
  name: string;
  reason: string;
}

/** The option a session sets on a tool it cannot serve under its configuration: the whole reason. */
export const UNAVAILABLE_BECAUSE = 'unavailable_because';

export function omittedTools(profile: HarnessProfile): OmittedTool[] {
  return profile.tools
    .filter((tool) => tool.capability === OMITTED_CAPABILITY)
    .map((tool) => {
      const because = tool.options[UNAVAILABLE_BECAUSE];
      if (typeof because === 'string') return { name: tool.name, reason: because };
      const reason = tool.options['reason'];
      return { name: tool.name, reason: typeof reason === 'string' && reason !== '' ? `not in this build of rig: ${reason}` : 'not in this build of rig' };
    });
}

/**
 * Binds a loaded profile's tools: harness capabilities from here, native ones from `native`.
 * Throws HarnessProfileError (file + field) when a tool's capability is unknown or misconfigured,
 * naming the tool: a profile never advertises a tool without a handler.
 */
export function bindHarness(profile: HarnessProfile, native: CapabilityRegistry<ToolSpec> = new Map()): BoundHarness {
  const byName = new Map<string, ToolSpec>();
  const registry = new Map<string, ToolFactory<ToolSpec>>([...harnessCapabilities(), ...native]);
  registry.set('tool.call', (tool) => createToolCallTool(tool, (name) => byName.get(name)));
  // Omitted tools are not bound: tool search and tool_call see only the tools that run.
  const offered: HarnessProfile = { ...profile, tools: profile.tools.filter((tool) => tool.capability !== OMITTED_CAPABILITY) };
  // A profile's per-tool `extras` ride along on the spec so every wire can send them.
  const specs = bindProfileTools(offered, registry).map((spec, index) => {
    const extras = offered.tools[index]?.extras;
    return extras && Object.keys(extras).length > 0 ? { ...spec, extras } : spec;
  });
  specs.forEach((spec) => byName.set(spec.name, spec));
  const pick = (exposure: string): ToolSpec[] =>
    offered.tools.flatMap((tool, index) => (tool.exposure === exposure && specs[index] ? [specs[index]] : []));
  return { all: specs, advertised: pick('advertised'), deferred: pick('deferred'), byName, omitted: omittedTools(profile) };
}

/**
 * The omission rule for what depends on configuration: a tool whose capability this thread cannot
 * serve is declared unavailable before binding, so it is left out of the request and of tool
 * search, and listed as omitted with the reason.
 */
export function withoutUnavailable(profile: HarnessProfile, unavailable: ReadonlyMap<string, string> | undefined): HarnessProfile {
  if (!unavailable || !profile.tools.some((tool) => unavailable.has(tool.capability))) return profile;
  return {
    ...profile,
    tools: profile.tools.map((tool) => {
      const reason = unavailable.get(tool.capability);
      return reason === undefined ? tool : { ...tool, capability: OMITTED_CAPABILITY, options: { ...tool.options, [UNAVAILABLE_BECAUSE]: reason } };
    }),
  };
}

/**
 * Finds the winning profile for `id` across the layers, reads it and binds its tools: the one path
 * sessions use. Tools of the `unavailable` capabilities (this session cannot serve them) are omitted.
 */
export function loadBoundHarness(
  id: string,
  native: CapabilityRegistry<ToolSpec>,
  options: ProfileSearchOptions = {},
  why?: string,
  unavailable?: ReadonlyMap<string, string> | ((profile: HarnessProfile) => ReadonlyMap<string, string>),
): { profile: HarnessProfile; tools: BoundHarness } {
  const found = findProfile(id, options, why);
  const profile = withoutUnavailable(found, typeof unavailable === 'function' ? unavailable(found) : unavailable);
  return { profile, tools: bindHarness(profile, native) };
}
