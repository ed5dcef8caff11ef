// Keys of a Codex config.toml that rig accepts so a copied Codex config loads: the ones that mean
// nothing to rig (quiet), and the ones that would change what rig does but are not implemented yet
// (inert: one warning each, from validate.ts). Lists of names only; schema.ts accepts them.
/**
 * Keys of a Codex config.toml that mean nothing to rig (accounts and login, updates, telemetry,
 * Codex's own UI, prompts and features rig has no counterpart of): accepted without a word, so a
 * copied Codex config loads quietly.
 */
export const CODEX_QUIET = [
  'review_model',
  'chatgpt_base_url',
  'file_opener',
  'disable_paste_burst',
  'notice',
  'oss_provider',
  'include_apps_instructions',
  'include_collaboration_mode_instructions',
  'apps_mcp_product_sku',
  'experimental_realtime_webrtc_call_base_url',
  'experimental_realtime_ws_base_url',
  // rig never stores responses (it sends store: false), which is what this asked for.
  'disable_response_storage',
  'preferred_auth_method',
  'forced_login_method',
  'forced_chatgpt_workspace_id',
  'cli_auth_credentials_store',
  'mcp_oauth_credentials_store',
  'check_for_update_on_startup',
  'analytics',
  'feedback',
  'windows_wsl_setup_acknowledged',
  'suppress_unstable_features_warning',
  'show_tooltips',
  // Codex's old tool switches: rig picks its tools by harness.
  'web_search_request',
  'include_plan_tool',
  'include_apply_patch_tool',
  'include_view_image_tool',
  'experimental_use_exec_command_tool',
  'experimental_use_freeform_apply_patch',
  'use_experimental_streamable_shell_tool',
  'experimental_resume',
] as const;

/**
 * Codex keys that would change what rig does, but rig does not implement them yet: accepted with
 * one warning saying what they would have done (see validate.ts). A value that asks for what rig
 * does anyway (`quietWhen`) draws no warning.
 */
export const CODEX_INERT = {
  personality: { would: "set the model's personality (friendly / pragmatic)", quietWhen: (v: unknown) => v === 'none' },
  service_tier: { would: 'request a service tier (e.g. priority or flex) from the provider' },
  approvals_reviewer: { would: 'have an automatic reviewer answer approvals', quietWhen: (v: unknown) => v === 'user' },
  allow_login_shell: { would: 'stop commands from running in a login shell', quietWhen: (v: unknown) => v === true },
  sqlite_home: { would: 'move the thread index database' },
  log_dir: { would: 'move the log files' },
  memories: { would: 'keep memories across threads' },
  skills: { would: 'configure skills' },
  plugins: { would: 'load plugins' },
  tools: { would: 'switch tools such as web search or view_image on or off' },
  permissions: { would: 'define permission profiles' },
  default_permissions: { would: 'pick a permission profile' },
  hide_agent_reasoning: { would: "hide the model's reasoning in the output", quietWhen: (v: unknown) => v === false },
  show_raw_agent_reasoning: { would: "show the model's raw reasoning", quietWhen: (v: unknown) => v === false },
  model_supports_reasoning_summaries: { would: 'ask for reasoning summaries from a model rig does not know to support them' },
  model_reasoning_summary_format: { would: 'change the format of reasoning summaries' },
  responses_api_metadata: { would: 'send metadata with each Responses request' },
  model_max_output_tokens: { would: "cap the length of the model's replies" },
  experimental_instructions_file: { would: 'replace the base instructions (rig reads model_instructions_file for this)' },
} as const satisfies Record<string, { would: string; quietWhen?: (value: unknown) => boolean }>;
