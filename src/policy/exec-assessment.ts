// What a shell command needs before it may run: evaluates the exec-policy
// rules for each sub-command of a script, falls back to the safe / dangerous
// heuristics for sub-commands no rule matched, and turns the strictest result
// into skip / needs-approval / forbidden with the reason strings of the reference.

import path from 'node:path';
import { extractShellScript, loadBashParser, type BashParser } from './bash.js';
import { isDangerousCommand } from './dangerous.js';
import { isKnownSafeCommand, type SafetyPlatform } from './safe-commands.js';
import { isGranular, isRestrictedSandbox, type ApprovalPolicyConfig, type SandboxMode } from './approval-policy.js';
import { strictestDecision, type Decision, type RuleMatch } from './rules/model.js';
import type { ExecPolicy } from './rules/policy.js';
import { shlexJoin } from './shlex.js';

export type ExecApprovalRequirement =
  | { kind: 'skip'; bypassSandbox: boolean; proposedAmendment?: string[] }
  | { kind: 'needs-approval'; reason?: string; proposedAmendment?: string[] }
  | { kind: 'forbidden'; reason: string };

export interface ExecCommandContext extends SafetyPlatform {
  policy: ApprovalPolicyConfig;
  sandboxMode: SandboxMode;
  /** The model asked for `sandbox_permissions: "require_escalated"`. */
  escalationRequested?: boolean;
  /** The model's `prefix_rule` suggestion for an "always allow" amendment. */
  prefixRule?: readonly string[];
}

export interface ExecAssessment {
  requirement: ExecApprovalRequirement;
  /** The commands the rules were evaluated against (sub-commands of a plain script, else the argv). */
  commands: string[][];
  /** True when only the heredoc fallback could read the script. */
  usedComplexParsing: boolean;
  decision: Decision;
  matchedRules: RuleMatch[];
}

const PROMPT_CONFLICT_REASON = 'approval required by policy, but AskForApproval is set to Never';
const REJECT_SANDBOX_APPROVAL_REASON = 'approval required by policy, but AskForApproval::Granular.sandbox_approval is false';
const REJECT_RULES_APPROVAL_REASON = 'approval required by policy rule, but AskForApproval::Granular.rules is false';

/** Over-broad prefixes never offered as "always allow" rules: they would allow arbitrary code. */
const BANNED_PREFIX_SUGGESTIONS: readonly string[][] = [
  ['python3'], ['python3', '-'], ['python3', '-c'], ['python'], ['python', '-'], ['python', '-c'], ['py'], ['py', '-3'],
  ['pythonw'], ['pyw'], ['pypy'], ['pypy3'], ['git'], ['bash'], ['bash', '-c'], ['bash', '-lc'], ['sh'], ['sh', '-c'],
  ['sh', '-lc'], ['zsh'], ['zsh', '-c'], ['zsh', '-lc'], ['/bin/zsh'], ['/bin/zsh', '-lc'], ['/bin/bash'], ['/bin/bash', '-lc'],
  ['pwsh'], ['pwsh', '-Command'], ['pwsh', '-c'], ['powershell'], ['powershell', '-Command'], ['powershell', '-c'],
  ['powershell.exe'], ['powershell.exe', '-Command'], ['powershell.exe', '-c'], ['cmd', '/c'], ['env'], ['sudo'], ['rm'],
  ['node'], ['node', '-e'], ['perl'], ['perl', '-e'], ['ruby'], ['ruby', '-e'], ['php'], ['php', '-r'], ['lua'], ['lua', '-e'],
  ['deno', 'eval'], ['bun', 'run'], ['npm', 'run'], ['pnpm', 'run'], ['yarn', 'run'], ['osascript'], ['Rscript'],
];

/** Splits a shell wrapper into the commands rules are checked against. */
export function commandsForExecPolicy(argv: readonly string[], bash: BashParser | null): { commands: string[][]; usedComplexParsing: boolean } {
  const shell = extractShellScript(argv);
  if (shell !== null && bash !== null) {
    const plain = bash.parsePlainCommands(shell.script);
    if (plain !== null && plain.length > 0) return { commands: plain, usedComplexParsing: false };
    const heredocPrefix = bash.parseHeredocCommandPrefix(shell.script);
    if (heredocPrefix !== null) return { commands: [heredocPrefix], usedComplexParsing: true };
  }
  return { commands: [[...argv]], usedComplexParsing: false };
}

/** The heuristic decision for a command no rule matched (reference §2 table). */
export function unmatchedCommandDecision(
  argv: readonly string[],
  ctx: ExecCommandContext & { usedComplexParsing: boolean },
  bash: BashParser | null,
): Decision {
  if (ctx.policy === 'untrusted' && !ctx.usedComplexParsing && isKnownSafeCommand(argv, bash, ctx)) return 'allow';
  // A destructive command always goes to a person, whatever the policy (only --yolo skips this).
  if (isDangerousCommand(argv, bash)) return 'prompt';
  switch (ctx.policy) {
    case 'never':
      return 'allow';
    case 'untrusted':
      return 'prompt';
    default:
      // on-request and granular: an unrestricted sandbox just runs; a restricted one asks only on escalation.
      if (!isRestrictedSandbox(ctx.sandboxMode)) return 'allow';
      return ctx.escalationRequested ? 'prompt' : 'allow';
  }
}

/**
 * The rejection reason when the policy does not let this prompt reach the user, else undefined.
 * A prompt for a dangerous command is never rejected here: it must be asked even under `never`
 * (a front end with nobody to ask declines it, and the model learns the user refused).
 */
export function promptRejectedByPolicy(policy: ApprovalPolicyConfig, promptIsRule: boolean, promptIsDangerous = false): string | undefined {
  if (promptIsDangerous && !promptIsRule) return undefined;
  if (policy === 'never') return PROMPT_CONFLICT_REASON;
  if (!isGranular(policy)) return undefined;
  if (promptIsRule) return policy.granular.rules ? undefined : REJECT_RULES_APPROVAL_REASON;
  return policy.granular.sandbox_approval ? undefined : REJECT_SANDBOX_APPROVAL_REASON;
}

/** Whether assessing `argv` may need the bash parser (so callers can skip loading it). */
export function needsBashParser(argv: readonly string[]): boolean {
  return argv.some((word) => ['bash', 'zsh', 'sh', 'dash', 'ksh'].includes(path.basename(word)) || word === 'trap');
}

/** Like assessExecCommand, loading the bash parser only when the command involves a shell. */
export async function assessExecCommandLazily(execPolicy: ExecPolicy, argv: readonly string[], ctx: ExecCommandContext): Promise<ExecAssessment> {
  const bash = needsBashParser(argv) ? await loadBashParser() : null;
  return assessExecCommand(execPolicy, argv, ctx, bash);
}

export function assessExecCommand(
  execPolicy: ExecPolicy,
  argv: readonly string[],
  ctx: ExecCommandContext,
  bash: BashParser | null,
): ExecAssessment {
  const { commands, usedComplexParsing } = commandsForExecPolicy(argv, bash);
  const fallbackCtx = { ...ctx, usedComplexParsing };
  const matchedRules: RuleMatch[] = [];
  const explicitPerCommand: RuleMatch[][] = [];
  for (const command of commands) {
    const explicit = execPolicy.matchesForCommand(command);
    explicitPerCommand.push(explicit);
    if (explicit.length > 0) matchedRules.push(...explicit);
    else matchedRules.push({ kind: 'heuristics', command, decision: unmatchedCommandDecision(command, fallbackCtx, bash) });
  }
  const decision = strictestDecision(matchedRules.map((match) => match.decision)) ?? 'allow';
  const anyRuleMatched = matchedRules.some((match) => match.kind === 'prefix');
  const amendmentAllowed = !usedComplexParsing;
  const requested = amendmentAllowed && !anyRuleMatched
    ? requestedAmendment(ctx.prefixRule, execPolicy, commands, (command) => unmatchedCommandDecision(command, fallbackCtx, bash))
    : undefined;

  let requirement: ExecApprovalRequirement;
  if (decision === 'forbidden') {
    requirement = { kind: 'forbidden', reason: forbiddenReason(argv, matchedRules) };
  } else if (decision === 'prompt') {
    const promptIsRule = matchedRules.some((match) => match.kind === 'prefix' && match.decision === 'prompt');
    const dangerous = dangerousPrompt(matchedRules, bash);
    const rejection = promptRejectedByPolicy(ctx.policy, promptIsRule, dangerous);
    if (rejection !== undefined) {
      requirement = { kind: 'forbidden', reason: rejection };
    } else {
      requirement = { kind: 'needs-approval' };
      const reason = promptReason(argv, matchedRules) ?? (dangerous ? `\`${shlexJoin(argv)}\` is potentially destructive, so it always needs approval` : undefined);
      if (reason !== undefined) requirement.reason = reason;
      // Never offer "always allow" for a destructive command: each one deserves its own look.
      const amendment = dangerous ? undefined : requested ?? (amendmentAllowed && !promptIsRule ? firstHeuristic(matchedRules, 'prompt') : undefined);
      if (amendment !== undefined) requirement.proposedAmendment = amendment;
    }
  } else {
    // Only an explicit allow for every sub-command means "trusted enough to skip the sandbox".
    const bypassSandbox = explicitPerCommand.every((explicit) => explicit.some((match) => match.decision === 'allow'));
    requirement = { kind: 'skip', bypassSandbox };
    const amendment = amendmentAllowed && !anyRuleMatched ? firstHeuristic(matchedRules, 'allow') : undefined;
    if (amendment !== undefined) requirement.proposedAmendment = amendment;
  }
  return { requirement, commands, usedComplexParsing, decision, matchedRules };
}

/** Whether a sub-command no rule matched is one the heuristics flag as dangerous. */
function dangerousPrompt(matches: RuleMatch[], bash: BashParser | null): boolean {
  return matches.some((match) => match.kind === 'heuristics' && match.decision === 'prompt' && isDangerousCommand(match.command, bash));
}

function firstHeuristic(matches: RuleMatch[], decision: Decision): string[] | undefined {
  const found = matches.find((match) => match.kind === 'heuristics' && match.decision === decision);
  return found?.kind === 'heuristics' ? [...found.command] : undefined;
}

function requestedAmendment(
  prefixRule: readonly string[] | undefined,
  execPolicy: ExecPolicy,
  commands: string[][],
  fallback: (command: string[]) => Decision,
): string[] | undefined {
  if (prefixRule === undefined || prefixRule.length === 0) return undefined;
  const banned = BANNED_PREFIX_SUGGESTIONS.some(
    (prefix) => prefix.length === prefixRule.length && prefix.every((word, i) => word === prefixRule[i]),
  );
  if (banned) return undefined;
  const amended = execPolicy.withPrefixRule(prefixRule, 'allow');
  const approvesAll = commands.every((command) => {
    const matches = amended.matchesForCommand(command);
    const decision = matches.length > 0 ? strictestDecision(matches.map((match) => match.decision)) : fallback(command);
    return decision === 'allow';
  });
  return approvesAll ? [...prefixRule] : undefined;
}

function mostSpecific(matches: RuleMatch[], decision: Decision) {
  let best: Extract<RuleMatch, { kind: 'prefix' }> | undefined;
  for (const match of matches) {
    if (match.kind !== 'prefix' || match.decision !== decision) continue;
    if (best === undefined || match.matchedPrefix.length > best.matchedPrefix.length) best = match;
  }
  return best;
}

/** A reason only when a rule drove the prompt. */
function promptReason(argv: readonly string[], matches: RuleMatch[]): string | undefined {
  const rule = mostSpecific(matches, 'prompt');
  if (rule === undefined) return undefined;
  const command = shlexJoin(argv);
  return rule.justification !== undefined ? `\`${command}\` requires approval: ${rule.justification}` : `\`${command}\` requires approval by policy`;
}

function forbiddenReason(argv: readonly string[], matches: RuleMatch[]): string {
  const command = shlexJoin(argv);
  const rule = mostSpecific(matches, 'forbidden');
  if (rule === undefined) return `\`${command}\` rejected: blocked by policy`;
  if (rule.justification !== undefined) return `\`${command}\` rejected: ${rule.justification}`;
  return `\`${command}\` rejected: policy forbids commands starting with \`${shlexJoin(rule.matchedPrefix)}\``;
}
