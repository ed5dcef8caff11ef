// The session's slash commands over the engine: settings (/model, /harness, /approvals), the
// thread (/status, /compact, /rename, /diff, /init, /plan, /undo, /rewind, /mcp) and switching threads (/new, /resume, /fork).
// The TUI adds its own (/help, /copy, /reflow, /quit) and refuses unknown words.
import type { SettingsUpdate, ThreadSettingsView } from '../../protocol/index.js';
import type { EnginePort } from './engine-port.js';
import type { CommandResult, SlashCommandSpec } from './session-port.js';
import { formatTokens } from './view/status-line.js';

export const ENGINE_COMMANDS: readonly SlashCommandSpec[] = [
  { name: 'model', description: 'show or change the model and its reasoning effort (from the next turn)', args: '[model] [effort]' },
  { name: 'harness', description: 'show or change the harness the model sees', args: '[id]' },
  { name: 'approvals', description: 'approval preset: read-only, auto or full-access', args: '[preset]' },
  { name: 'plan', description: 'plan mode: read-only, no edit tools, until /plan off', args: '[on|off]' },
  { name: 'status', description: 'the session: settings, thread, token use' },
  { name: 'compact', description: 'summarize the thread to free context' },
  { name: 'new', description: 'start a new thread (this one is saved)' },
  { name: 'resume', description: 'continue a stored thread', args: '[id]' },
  { name: 'fork', description: 'copy a stored thread (this one by default with "this") and continue the copy', args: '[id|this]' },
  { name: 'diff', description: "the files this session changed (/diff turn: the last turn's)", args: '[turn]' },
  { name: 'undo', description: "put back the files the last turn changed (N turns; --force: also files changed since)", args: '[N] [--force]' },
  { name: 'rewind', description: 'go back to before a turn: its files, the conversation, or both (choose from a list)', args: '[turn files|conversation|both]' },
  { name: 'mcp', description: "the thread's MCP servers: status, errors and tools" },
  { name: 'rename', description: 'name the thread', args: '<name>' },
  { name: 'goal', description: "the thread's goal: show it, set a new one (and start on it), pause, resume or clear it", args: '[objective|pause|resume|clear]' },
  { name: 'init', description: 'have the model write an AGENTS.md for this project' },
  {
    name: 'review',
    description: 'review the uncommitted changes read-only (--base BRANCH, --commit SHA, or your own instructions) and list the findings',
    args: '[--base BRANCH | --commit SHA | instructions]',
  },
];

// Efforts as config.toml spells them; a lone word from this list changes the effort only.
const EFFORTS = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'ultra']);

const PRESETS: Record<string, { sandbox_mode: ThreadSettingsView['sandbox_mode']; approval_policy: NonNullable<SettingsUpdate['approval_policy']>; what: string }> = {
  'read-only': { sandbox_mode: 'read-only', approval_policy: 'on-request', what: 'reads files; asks before editing or running anything that writes' },
  auto: { sandbox_mode: 'workspace-write', approval_policy: 'on-request', what: 'edits and runs commands in the workspace; asks before anything outside it or on the network' },
  'full-access': { sandbox_mode: 'danger-full-access', approval_policy: 'never', what: 'no sandbox and no questions: commands run with your full access' },
};

const INIT_PROMPT = [
  'Write an AGENTS.md file at the root of this project for coding agents that will work here.',
  'Look at the repository first (its layout, build and test commands, code style, conventions).',
  'Keep it short and concrete: how to build, how to run the tests, where things live, rules to follow.',
  'If an AGENTS.md exists already, improve it instead of replacing what is still right.',
].join(' ');

export async function runEngineCommand(port: EnginePort, name: string, args: string): Promise<CommandResult> {
  if (name === 'new' || name === 'resume' || name === 'fork') return switchThread(port, name, args);
  const handle = port.handle;
  switch (name) {
    case 'model': {
      const words = args.split(/\s+/).filter(Boolean);
      if (words.length === 0) {
        const s = handle.settings;
        return { text: `model **${s.model}**${s.reasoning_effort ? ` · effort ${s.reasoning_effort}` : ''} (provider ${s.model_provider}) — change it with \`/model NAME [effort]\` or \`/model EFFORT\`` };
      }
      const [first, second] = words;
      const update = words.length === 1 && EFFORTS.has(first!) ? { reasoning_effort: first! } : { model: first!, ...(second ? { reasoning_effort: second } : {}) };
      const view = await handle.updateSettings(update);
      return { text: `from the next turn: model **${view.model}**${view.reasoning_effort ? ` · effort ${view.reasoning_effort}` : ''}` };
    }
    case 'harness': {
      if (args === '') {
        const { listHarnesses, profileSearch } = await import('../../core/harness-catalog.js');
        const ids = listHarnesses(profileSearch({ env: port.engine.env, cwd: handle.settings.cwd }))
          .filter((entry) => !entry.error)
          .map((entry) => entry.id);
        return { text: `harness **${handle.settings.harness}**; available: ${[...new Set(ids)].join(', ')} — change it with \`/harness ID\`` };
      }
      const view = await handle.updateSettings({ harness: args });
      return { text: `from the next turn the model sees the **${view.harness}** harness` };
    }
    case 'approvals': {
      if (args === '') {
        const s = handle.settings;
        const lines = Object.entries(PRESETS).map(([preset, p]) => `- \`${preset}\`: ${p.what}`);
        return { text: `now: sandbox ${s.yolo ? 'none' : s.sandbox_mode} · approvals ${s.yolo ? 'never asked' : s.approval_policy}\n\n${lines.join('\n')}\n\nchoose one with \`/approvals PRESET\`` };
      }
      const preset = PRESETS[args];
      if (!preset) return { error: `unknown approval preset "${args}": use read-only, auto or full-access` };
      const view = await handle.updateSettings({ sandbox_mode: preset.sandbox_mode, approval_policy: preset.approval_policy });
      return { text: `from the next turn: sandbox ${view.sandbox_mode} · approvals ${view.approval_policy} (${preset.what})` };
    }
    case 'plan': {
      const now = handle.settings.plan_mode === true;
      if (args !== '' && args !== 'on' && args !== 'off') return { error: `/plan takes on or off (or nothing to switch); got "${args}"` };
      const next = args === '' ? !now : args === 'on';
      if (next === now) return { text: now ? 'plan mode is on: /plan off to let the agent change files again' : 'plan mode is off' };
      const view = await handle.updateSettings({ plan_mode: next });
      return {
        text: view.plan_mode
          ? 'plan mode from the next turn: a read-only sandbox and no edit tools, for sub-agents too; ask for a plan, then /plan off to carry it out'
          : `plan mode off from the next turn: sandbox ${view.sandbox_mode} · approvals ${view.approval_policy}`,
      };
    }
    case 'status':
      return { text: statusText(port) };
    case 'compact':
      if (handle.isRunning) return { error: 'a turn is running: wait for it (or press Esc) before compacting' };
      handle.compact();
      return {};
    case 'diff': {
      const changes = args === 'turn' ? port.changes.filter((change) => change.turnId === port.lastTurnId) : port.changes;
      if (changes.length === 0) return { text: args === 'turn' ? 'the last turn changed no files' : 'this session has changed no files yet' };
      return { items: changes.map((change) => change.item) };
    }
    // Undo, rewind and MCP code (checkpoints, the diff library, the rollout store) loads when a
    // command needs it, not before the first frame.
    case 'undo':
      return undoTurns(port, args);
    case 'review':
      // Loaded when used, like undo and rewind: the first frame needs none of it.
      return (await import('./review-command.js')).runReviewCommand(port, args);
    case 'rewind':
      return (await import('./engine-rewind.js')).runRewind(port, args);
    case 'mcp':
      return (await import('./engine-mcp.js')).mcpStatusText(port);
    case 'rename':
      if (args === '') return { error: 'give the thread a name: /rename NAME' };
      handle.setName(args);
      return { text: `thread named **${handle.name}**` };
    case 'goal':
      return (await import('./goal-command.js')).runGoalCommand(port, args);
    case 'init':
      if (handle.isRunning) return { error: 'a turn is running: wait for it (or press Esc) before /init' };
      return { send: { text: INIT_PROMPT } };
    default:
      return { error: `unknown command /${name}` };
  }
}

/** /new, /resume and /fork: the session moves to another thread (the one it leaves is saved). */
async function switchThread(port: EnginePort, name: 'new' | 'resume' | 'fork', args: string): Promise<CommandResult> {
  const current = port.current;
  if (name !== 'new' && args === '') return { pick: name };
  if (name === 'fork' && args === 'this' && !current) return { error: 'no thread is open to fork' };
  if (current?.isRunning) await current.interrupt();
  if (name === 'new') await port.open('new');
  else await port.open(name, name === 'fork' && args === 'this' ? current!.id : args);
  const id = port.handle.id;
  return { text: name === 'new' ? `new thread ${id}` : name === 'resume' ? `resumed thread ${id}` : `forked into thread ${id}` };
}

function statusText(port: EnginePort): string {
  const handle = port.handle;
  const s = handle.settings;
  const usage = handle.usage;
  const rows: [string, string][] = [
    ['thread', `${handle.id}${handle.name ? ` (${handle.name})` : ''}`],
    ['directory', `\`${s.cwd}\``],
    ['model', `${s.model}${s.reasoning_effort ? ` · effort ${s.reasoning_effort}` : ''} · provider ${handle.info.provider.name} (${handle.info.wire})`],
    ['harness', s.harness],
    ['sandbox', s.yolo ? 'none (--dangerously-bypass-approvals-and-sandbox)' : s.sandbox_mode],
    ['approvals', s.yolo ? 'never asked' : s.approval_policy],
    ...(s.plan_mode ? [['plan mode', 'on (read-only, no edit tools)'] as [string, string]] : []),
    ['tokens', `${formatTokens(usage.input_tokens)} in (${formatTokens(usage.cached_input_tokens)} cached) · ${formatTokens(usage.output_tokens)} out`],
  ];
  if (s.context_window) rows.push(['context window', `${formatTokens(s.context_window)} tokens`]);
  if (handle.info.rolloutPath) rows.push(['saved in', `\`${handle.info.rolloutPath}\``]);
  return rows.map(([key, value]) => `- **${key}**: ${value}`).join('\n');
}

/** /undo [N] [--force]: the files the newest N turns changed, as they were before them. */
async function undoTurns(port: EnginePort, args: string): Promise<CommandResult> {
  const handle = port.handle;
  if (handle.isRunning) return { error: 'a turn is running: wait for it (or press Esc) before undoing' };
  const words = args.split(/\s+/).filter(Boolean);
  const force = words.includes('--force');
  const rest = words.filter((word) => word !== '--force');
  if (rest.length > 1 || (rest[0] !== undefined && !/^[1-9]\d*$/.test(rest[0]))) return { error: `/undo takes a number of turns and --force; got "${args}"` };
  const { applyTurnUndo, loadedCheckpoints, planTurnUndo } = await import('../../core/undo.js');
  const source = loadedCheckpoints(handle);
  if (!source) return { error: 'this thread keeps no checkpoints, so there is nothing to undo' };
  let plan;
  try {
    plan = planTurnUndo(source, rest[0] ? { turns: Number(rest[0]) } : {});
  } catch (error) {
    return { text: error instanceof Error ? error.message : String(error) };
  }
  const result = applyTurnUndo(source, plan, force);
  const cwd = handle.settings.cwd;
  const show = (path: string) => `\`${path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path}\``;
  const lines = [`undid ${plan.turns.length === 1 ? 'the last turn' : `${plan.turns.length} turns`}: ${result.restored.length === 0 ? 'no file put back' : `put back ${result.restored.map(show).join(', ')}`}`];
  if (result.skipped.length > 0) lines.push(`left as they are, changed since the turn: ${result.skipped.map(show).join(', ')} (\`/undo --force\` puts them back too)`);
  if (result.unrestorable.length > 0) lines.push(`not kept, so not restorable: ${result.unrestorable.map(show).join(', ')}`);
  if (result.restored.length > 0) lines.push('the model is told with your next message');
  return { text: lines.join('\n\n') };
}
