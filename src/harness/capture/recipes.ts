// How to point each original at the capture server: its binary names, the wires it speaks and, per
// wire, its own knobs for base URL, key and model (flags, environment, config files in the
// throwaway home), plus the settings that keep it quiet (telemetry, updates). Facts from each
// original's docs and sources; the ones marked `untested` have not been run against a real
// install in rig's tests (the fake agent in test/fixtures plays them).
import type { WireApi } from '../../model/types.js';

export interface RecipeContext {
  wire: WireApi;
  /** The throwaway home (XDG dirs inside it). */
  home: string;
  workspace: string;
  /** `http://127.0.0.1:PORT`, no path. */
  root: string;
  /** `root` + `/v1`. */
  v1: string;
  /** Model id, or undefined to let the original pick its default. */
  model: string | undefined;
  prompt: string;
  key: string;
}

export interface RecipeRun {
  args: string[];
  env: Record<string, string>;
  /** Files to write before the run, by absolute path. */
  files: Record<string, string>;
}

export interface CaptureRecipe {
  /** The harness id (the built-in profile the capture binds to). */
  id: string;
  /** Binary names looked up on PATH, first found wins. */
  bins: string[];
  wires: WireApi[];
  /** Model id used when the user gives none and the original needs one (undefined: its own default). */
  defaultModel?: string;
  prepare(ctx: RecipeContext): RecipeRun;
  /** Said in `rig harness capture --list` and in the profile's notes. */
  note?: string;
  untested?: boolean;
}

const MODEL = 'rig-capture-model';

const pi: CaptureRecipe = {
  id: 'pi',
  bins: ['pi'],
  wires: ['chat', 'responses', 'messages'],
  defaultModel: MODEL,
  prepare(ctx) {
    const api = ctx.wire === 'chat' ? 'openai-completions' : ctx.wire === 'responses' ? 'openai-responses' : 'anthropic-messages';
    // docs/models.md: a custom provider in models.json; maxTokens 16384 is pi's default.
    const models = {
      providers: {
        rigcapture: {
          baseUrl: ctx.wire === 'messages' ? ctx.root : ctx.v1,
          api,
          apiKey: 'RIG_CAPTURE_KEY',
          models: [{ id: ctx.model ?? MODEL, name: ctx.model ?? MODEL, reasoning: false, input: ['text'], contextWindow: 200000, maxTokens: 16384 }],
        },
      },
    };
    const agentDir = `${ctx.home}/.pi/agent`;
    return {
      args: ['-p', '--provider', 'rigcapture', '--model', ctx.model ?? MODEL, ctx.prompt],
      env: { RIG_CAPTURE_KEY: ctx.key, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1', PI_TELEMETRY: '0' },
      files: { [`${agentDir}/models.json`]: `${JSON.stringify(models, null, 2)}\n` },
    };
  },
};

const opencode: CaptureRecipe = {
  id: 'opencode',
  bins: ['opencode'],
  wires: ['chat', 'responses', 'messages'],
  defaultModel: MODEL,
  prepare(ctx) {
    const npm = ctx.wire === 'chat' ? '@ai-sdk/openai-compatible' : ctx.wire === 'responses' ? '@ai-sdk/openai' : '@ai-sdk/anthropic';
    const model = ctx.model ?? MODEL;
    // A custom provider through the AI SDK package of the wire; the output limit decides max_tokens.
    const config = {
      $schema: 'https://opencode.ai/config.json',
      provider: {
        rigcapture: {
          npm,
          name: 'rig capture',
          options: { baseURL: ctx.v1, apiKey: ctx.key },
          models: { [model]: { name: model, limit: { context: 200000, output: 32000 } } },
        },
      },
      model: `rigcapture/${model}`,
      small_model: `rigcapture/${model}`,
      autoupdate: false,
      share: 'disabled',
    };
    const file = `${ctx.home}/opencode.json`;
    return {
      args: ['run', '--auto', ctx.prompt],
      env: {
        OPENCODE_CONFIG: file,
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_CLAUDE_CODE: '1',
      },
      files: { [file]: `${JSON.stringify(config, null, 2)}\n` },
    };
  },
};

const claudeCode: CaptureRecipe = {
  id: 'claude-code',
  bins: ['claude'],
  wires: ['messages'],
  prepare(ctx) {
    return {
      args: ['-p', '--dangerously-skip-permissions', ...(ctx.model ? ['--model', ctx.model] : []), ctx.prompt],
      env: {
        ANTHROPIC_BASE_URL: ctx.root,
        ANTHROPIC_API_KEY: ctx.key,
        CLAUDE_CONFIG_DIR: `${ctx.home}/.claude`,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        // --dangerously-skip-permissions refuses to run as root unless told it is a sandbox.
        ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
      },
      files: {},
    };
  },
};

const qwenCode: CaptureRecipe = {
  id: 'qwen-code',
  bins: ['qwen'],
  wires: ['chat', 'responses', 'messages'],
  defaultModel: MODEL,
  prepare(ctx) {
    const authType = ctx.wire === 'chat' ? 'openai' : ctx.wire === 'responses' ? 'openai-responses' : 'anthropic';
    const settings = {
      security: { auth: { selectedType: authType } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true },
    };
    const model = ctx.model ?? MODEL;
    const env: Record<string, string> =
      ctx.wire === 'messages'
        ? { ANTHROPIC_BASE_URL: ctx.root, ANTHROPIC_API_KEY: ctx.key, ANTHROPIC_MODEL: model }
        : { OPENAI_BASE_URL: ctx.v1, OPENAI_API_KEY: ctx.key, OPENAI_MODEL: model };
    return {
      args: ['--yolo', '--auth-type', authType, ctx.prompt],
      env,
      files: { [`${ctx.home}/.qwen/settings.json`]: `${JSON.stringify(settings, null, 2)}\n` },
    };
  },
};

const codex: CaptureRecipe = {
  id: 'native',
  bins: ['codex'],
  wires: ['responses'],
  note: 'the native harness is modelled on Codex',
  prepare(ctx) {
    const codexHome = `${ctx.home}/.codex`;
    const config = [
      'model_provider = "rigcapture"',
      ...(ctx.model ? [`model = ${JSON.stringify(ctx.model)}`] : []),
      '',
      '[model_providers.rigcapture]',
      'name = "rig capture"',
      `base_url = ${JSON.stringify(ctx.v1)}`,
      'wire_api = "responses"',
      'env_key = "RIG_CAPTURE_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[features]',
      'plugins = false',
      '',
    ].join('\n');
    return {
      args: ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '--json', '--color', 'never', ctx.prompt],
      env: { CODEX_HOME: codexHome, RIG_CAPTURE_KEY: ctx.key },
      files: { [`${codexHome}/config.toml`]: config },
    };
  },
};

function kimiConfig(ctx: RecipeContext): string {
  const type = ctx.wire === 'chat' ? 'openai' : ctx.wire === 'responses' ? 'openai_responses' : 'anthropic';
  const model = ctx.model ?? MODEL;
  return [
    `default_model = ${JSON.stringify(model)}`,
    'telemetry = false',
    '',
    '[providers.rigcapture]',
    `type = "${type}"`,
    `base_url = ${JSON.stringify(ctx.wire === 'messages' ? ctx.root : ctx.v1)}`,
    `api_key = ${JSON.stringify(ctx.key)}`,
    '',
    `[models.${JSON.stringify(model)}]`,
    'provider = "rigcapture"',
    `model = ${JSON.stringify(model)}`,
    'max_context_size = 200000',
    '',
  ].join('\n');
}

const kimiCode: CaptureRecipe = {
  id: 'kimi-code',
  bins: ['kimi'],
  wires: ['chat', 'responses', 'messages'],
  defaultModel: MODEL,
  untested: true,
  note: 'Kimi Code CLI reads $KIMI_CODE_HOME/config.toml (moonshotai.github.io/kimi-code, configuration)',
  prepare(ctx) {
    const kimiHome = `${ctx.home}/.kimi-code`;
    return {
      args: ['--print', '--yolo', '--prompt', ctx.prompt],
      env: { KIMI_CODE_HOME: kimiHome },
      files: { [`${kimiHome}/config.toml`]: kimiConfig(ctx) },
    };
  },
};

const kimiCli: CaptureRecipe = {
  id: 'kimi-cli',
  bins: ['kimi'],
  wires: ['chat', 'responses', 'messages'],
  defaultModel: MODEL,
  untested: true,
  note: 'the Python Kimi CLI takes --config-file (moonshotai.github.io/kimi-cli, configuration)',
  prepare(ctx) {
    const file = `${ctx.home}/.kimi/config.toml`;
    return { args: ['--config-file', file, '--print', '--yolo', '--prompt', ctx.prompt], env: {}, files: { [file]: kimiConfig(ctx) } };
  },
};

export const CAPTURE_RECIPES: readonly CaptureRecipe[] = [pi, opencode, claudeCode, qwenCode, codex, kimiCode, kimiCli];

/** The recipe for a harness id, or for an original's binary name (`claude`, `codex`, `qwen`). */
export function findRecipe(name: string): CaptureRecipe | undefined {
  return CAPTURE_RECIPES.find((recipe) => recipe.id === name) ?? CAPTURE_RECIPES.find((recipe) => recipe.bins.includes(name));
}
