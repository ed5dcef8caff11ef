// What a front end asks of a session, named as the CLI flags are (commander's camelCase), so the
// CLI hands its parsed options over unchanged.
export interface SessionFlags {
  config?: string[];
  profile?: string;
  model?: string;
  provider?: string;
  harness?: string;
  cd?: string;
  sandbox?: 'read-only' | 'workspace-write' | 'danger-full-access';
  askForApproval?: 'untrusted' | 'on-request' | 'on-failure' | 'never';
  addDir?: string[];
  fullAuto?: boolean;
  dangerouslyBypassApprovalsAndSandbox?: boolean;
  yolo?: boolean;
  replay?: string;
  ignoreUserConfig?: boolean;
  ignoreRules?: boolean;
  strictConfig?: boolean;
  json?: boolean;
  experimentalJson?: boolean;
  outputLastMessage?: string;
  outputSchema?: string;
  image?: string[];
  skipGitRepoCheck?: boolean;
  ephemeral?: boolean;
  color?: 'always' | 'never' | 'auto';
  last?: boolean;
  all?: boolean;
}
