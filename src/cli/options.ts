// The options rig's commands share, defined once. Each may be given before the subcommand, after
// it, and after the prompt (`rig -c a=1 exec "fix it" -c b=2 --full-auto`): repeatable ones (-c,
// --add-dir, -i) collect values from every position in order, and for the others the position
// nearest the subcommand wins, as in Codex. A command accepts the shared options that mean
// something to it; one given before a subcommand it means nothing to is a usage error rather than
// being silently ignored.
import { InvalidArgumentError, Option, type Command } from 'commander';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function collectImages(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').filter((part) => part !== '')];
}

/** Warnings about deprecated option values, printed once the command line is parsed. */
export const optionWarnings: string[] = [];

function approvalPolicy(value: string): string {
  const allowed = ['untrusted', 'on-request', 'on-failure', 'never'];
  if (!allowed.includes(value)) throw new InvalidArgumentError(`Allowed choices are ${allowed.join(', ')}.`);
  if (value === 'on-failure') {
    // Codex dropped on-failure; rig keeps accepting it, and says what runs instead.
    optionWarnings.push(
      '-a on-failure is deprecated (Codex removed it); rig runs on-request instead: commands run in the sandbox, and the model asks before running one outside it',
    );
    return 'on-request';
  }
  return value;
}

export type SharedOptionKey =
  | 'config'
  | 'profile'
  | 'model'
  | 'provider'
  | 'harness'
  | 'cd'
  | 'sandbox'
  | 'askForApproval'
  | 'addDir'
  | 'fullAuto'
  | 'dangerouslyBypassApprovalsAndSandbox'
  | 'yolo'
  | 'replay'
  | 'ignoreUserConfig'
  | 'ignoreRules'
  | 'strictConfig'
  | 'json'
  | 'experimentalJson'
  | 'outputLastMessage'
  | 'outputSchema'
  | 'image'
  | 'skipGitRepoCheck'
  | 'ephemeral'
  | 'color'
  | 'plan'
  | 'threadSource'
  | 'cyberAccessProgram'
  | 'altScreen';

/** Values that add up across positions instead of the nearest one winning. */
const REPEATABLE: ReadonlySet<string> = new Set(['config', 'addDir', 'image']);

const MAKERS: Record<SharedOptionKey, () => Option> = {
  config: () => new Option('-c, --config <key=value>', 'override a config value (dotted key, TOML value; repeatable)').argParser(collect),
  profile: () => new Option('-p, --profile <name>', 'layer the named config profile ([profiles.NAME] or $RIG_HOME/NAME.config.toml)'),
  model: () => new Option('-m, --model <model>', "model to use (default: the provider's default model)"),
  provider: () =>
    new Option('--provider <id>', 'model provider id (openai, anthropic, openrouter, deepseek, moonshot, dashscope, zai, ollama, lmstudio, replay, or one from config)'),
  harness: () => new Option('--harness <id>', 'present rig to the model as this harness (see `rig harness list`)'),
  cd: () => new Option('-C, --cd <dir>', 'working root for the agent'),
  sandbox: () => new Option('-s, --sandbox <mode>', 'sandbox for model-run commands').choices(['read-only', 'workspace-write', 'danger-full-access']),
  askForApproval: () =>
    new Option('-a, --ask-for-approval <policy>', 'when to ask before running a command: untrusted, on-request or never (on-failure: deprecated, runs as on-request)').argParser(
      approvalPolicy,
    ),
  addDir: () => new Option('--add-dir <dir>', 'extra writable directory (repeatable)').argParser(collect),
  fullAuto: () => new Option('--full-auto', 'workspace-write sandbox and on-request approvals'),
  dangerouslyBypassApprovalsAndSandbox: () =>
    new Option('--dangerously-bypass-approvals-and-sandbox', 'run every command without sandbox or approval (DANGEROUS)'),
  yolo: () => new Option('--yolo', 'alias of --dangerously-bypass-approvals-and-sandbox'),
  replay: () => new Option('--replay <rollout>', 'serve model responses recorded in a rollout file (offline; implies --provider replay)'),
  ignoreUserConfig: () => new Option('--ignore-user-config', 'do not read $RIG_HOME/config.toml'),
  ignoreRules: () => new Option('--ignore-rules', 'do not load exec-policy .rules files'),
  strictConfig: () => new Option('--strict-config', 'treat unknown config keys as errors'),
  json: () => new Option('--json', 'print one JSON event per line on stdout (Codex exec event format)'),
  experimentalJson: () => new Option('--experimental-json', 'alias of --json'),
  outputLastMessage: () => new Option('-o, --output-last-message <file>', 'write the final agent message to FILE'),
  outputSchema: () => new Option('--output-schema <file>', 'JSON Schema the final answer must follow'),
  image: () => new Option('-i, --image <file>', 'attach image(s) to the prompt (repeatable or comma-separated)').argParser(collectImages),
  skipGitRepoCheck: () => new Option('--skip-git-repo-check', 'allow running outside a git repository'),
  ephemeral: () => new Option('--ephemeral', 'do not write a rollout for this session'),
  color: () => new Option('--color <when>', 'colour human output').choices(['always', 'never', 'auto']),
  plan: () => new Option('--plan', 'plan mode: a read-only sandbox and only read, search and plan tools, for the agent and every sub-agent'),
  // The Codex SDK passes these when its threadSource / cyberAccessProgram options are set.
  threadSource: () => new Option('--thread-source <source>', 'accepted for Codex SDK compatibility (its threadSource option); not used yet'),
  cyberAccessProgram: () =>
    new Option('--cyber-access-program <program>', 'accepted for Codex SDK compatibility (an OpenAI-only turn option); ignored'),
  // Codex's flag: the interactive session stays inline whatever tui.alternate_screen says.
  altScreen: () => new Option('--no-alt-screen', "never use the terminal's alternate screen (overrides tui.alternate_screen)"),
};

/** What the interactive session adds (the root, resume, fork). */
export const TUI_OPTIONS: readonly SharedOptionKey[] = ['altScreen'];

/** The options of an engine session (the root, exec, exec resume, resume, fork). */
export const SESSION_OPTIONS: readonly SharedOptionKey[] = [
  'config', 'profile', 'model', 'provider', 'harness', 'cd', 'sandbox', 'askForApproval', 'addDir', 'fullAuto',
  'dangerouslyBypassApprovalsAndSandbox', 'yolo', 'replay', 'ignoreUserConfig', 'ignoreRules', 'strictConfig',
];

/** What `rig exec` adds to a session's options. */
export const EXEC_OPTIONS: readonly SharedOptionKey[] = [
  'json', 'experimentalJson', 'outputLastMessage', 'outputSchema', 'image', 'skipGitRepoCheck', 'ephemeral', 'color', 'plan',
  'threadSource', 'cyberAccessProgram',
];

export const POSITIONS_HELP = [
  '',
  'Options may come before or after the subcommand, and after the prompt. Repeatable options',
  '(-c, --add-dir, -i) collect the values of every position; for the others the one given',
  'nearest the subcommand wins. `rig -c a=1 exec -c b=2 "fix it" --full-auto` applies both -c.',
].join('\n');

/** Adds the named shared options to `command`. */
export function addSharedOptions(command: Command, keys: readonly SharedOptionKey[]): Command {
  for (const key of keys) command.addOption(MAKERS[key]());
  return command;
}

/**
 * The options in effect for `command`: each ancestor's explicit values, then its own, merged as
 * described above. Defaults apply only where no position gave a value.
 */
export function mergedOptions<T extends object>(command: Command): T {
  const chain: Command[] = [];
  for (let c: Command | null = command; c; c = c.parent) chain.unshift(c);
  const explicit: Record<string, unknown> = {};
  const defaults: Record<string, unknown> = {};
  for (const c of chain) {
    const values = c.opts();
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      const source = c.getOptionValueSource(key);
      if (source === 'default' || source === 'implied') {
        defaults[key] = value;
        continue;
      }
      if (REPEATABLE.has(key) && Array.isArray(value)) {
        explicit[key] = [...((explicit[key] as unknown[] | undefined) ?? []), ...value];
      } else {
        explicit[key] = value;
      }
    }
  }
  return { ...defaults, ...explicit } as T;
}

/**
 * A usage error when an option given before a subcommand means nothing to it (`rig -m x sessions`):
 * the command that runs, or a command between it and the root, must define the option too.
 */
export function checkInheritedOptions(actionCommand: Command): void {
  const accepted = new Set<string>();
  for (let c: Command | null = actionCommand; c?.parent; c = c.parent) for (const option of c.options) accepted.add(option.attributeName());
  const name = commandPath(actionCommand);
  for (let c = actionCommand.parent; c; c = c.parent) {
    for (const option of c.options) {
      const key = option.attributeName();
      const source = c.getOptionValueSource(key);
      if (source !== 'cli' || accepted.has(key)) continue;
      actionCommand.error(`error: option '${option.flags}' does not apply to '${name}'`, { code: 'commander.optionDoesNotApply', exitCode: 2 });
    }
  }
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
