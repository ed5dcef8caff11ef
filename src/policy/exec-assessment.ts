// What a shell command needs before it may run: evaluates the exec-policy
// rules for each sub-command of a script, falls back to the safe / dangerous
// heuristics for sub-commands no rule matched, and turns the strictest result
// into skip / needs-approval / forbidden with the reason strings of the reference.

import { extractShellScript, loadBashParser, type BashParser } from './bash.js';
import { commandVerdict, scriptReader } from './classify.js';
import type { SafetyPlatform } from './safe-commands.js';
import type { ScriptReader } from './script-syntax.js';
import { classifyArgv, ParserNeeded, type CommandSite, type ScriptVerdict, type Verdict } from './verdict.js';
import { isGranular, isRestrictedSandbox, type ApprovalPolicyConfig, type SandboxMode } from './approval-policy.js';
import { strictestDecision, type Decision, type RuleMatch } from './rules/model.js';
import type { ExecPolicy } from './rules/policy.js';
import { shlexJoin } from './shlex.js';

export type ExecApprovalRequirement =
  | { kind: 'skip'; bypassSandbox: boolean; proposedAmendment?: string[] }
  | { kind: 'needs-approval'; reason?: string; proposedAmendment?: string[] }
  | { kind: 'forbidden'; reason: string };

export interface ExecCommandContext extends SafetyPlatform, CommandSite {
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

/**
 * Splits a shell wrapper into the commands rules are checked against: the plain commands of a
 * `bash|zsh|sh -c|-lc` script, or the heredoc-fed command's prefix, or the argv itself.
 */
export function commandsForExecPolicy(argv: readonly string[], bash: BashParser | null): { commands: string[][]; usedComplexParsing: boolean } {
  return splitForRules(argv, scriptReader(bash));
}

function splitForRules(argv: readonly string[], reader: ScriptReader): { commands: string[][]; usedComplexParsing: boolean } {
  const shell = extractShellScript(argv);
  const syntax = shell === null ? null : reader.read(shell.script);
  if (syntax !== null) {
    if (syntax.plainArgv !== null && syntax.plainArgv.length > 0) return { commands: syntax.plainArgv.map((command) => [...command]), usedComplexParsing: false };
    if (syntax.heredocPrefix !== null) return { commands: [[...syntax.heredocPrefix]], usedComplexParsing: true };
  }
  return { commands: [[...argv]], usedComplexParsing: false };
}

/** The heuristic decision for a command no rule matched (reference §2 table). */
export function unmatchedCommandDecision(
  argv: readonly string[],
  ctx: ExecCommandContext & { usedComplexParsing: boolean },
  bash: BashParser | null,
): Decision {
  return heuristicDecision(commandVerdict(argv, bash, ctx, ctx.policy === 'untrusted'), ctx);
}

function heuristicDecision(verdict: Verdict, ctx: ExecCommandContext & { usedComplexParsing: boolean }): Decision {
  if (ctx.policy === 'untrusted' && !ctx.usedComplexParsing && verdict.safe) return 'allow';
  // A destructive command always goes to a person, whatever the policy (only --yolo skips this).
  if (verdict.danger !== undefined) return 'prompt';
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

/** Like assessExecCommand, loading the bash parser only when a script needs it (most one-line commands do not). */
export async function assessExecCommandLazily(execPolicy: ExecPolicy, argv: readonly string[], ctx: ExecCommandContext): Promise<ExecAssessment> {
  try {
    return assess(execPolicy, argv, ctx, null);
  } catch (error) {
    if (!(error instanceof ParserNeeded)) throw error;
  }
  return assessExecCommand(execPolicy, argv, ctx, await loadBashParser());
}

export function assessExecCommand(
  execPolicy: ExecPolicy,
  argv: readonly string[],
  ctx: ExecCommandContext,
  bash: BashParser | null,
): ExecAssessment {
  try {
    return assess(execPolicy, argv, ctx, bash);
  } catch (error) {
    if (!(error instanceof ParserNeeded)) throw error;
    // Without the parser, a script rig cannot read is treated as dangerous.
    return assess(execPolicy, argv, ctx, bash, { safe: false, danger: commandVerdict(argv, null, ctx, false).danger! });
  }
}

/** Throws ParserNeeded when `bash` is null and a script needs it. */
function assess(execPolicy: ExecPolicy, argv: readonly string[], ctx: ExecCommandContext, bash: BashParser | null, fixed?: Verdict): ExecAssessment {
  const reader = scriptReader(bash);
  const whole: ScriptVerdict = fixed ?? classifyArgv(argv, reader, ctx, ctx.policy === 'untrusted');
  const { commands, usedComplexParsing } = splitForRules(argv, reader);
  // The sub-commands of a plain script have verdicts of their own (read in the script's context).
  const parts = !usedComplexParsing && whole.parts?.length === commands.length ? whole.parts : undefined;
  const verdictOf = (index: number): Verdict => parts?.[index] ?? whole;
  const fallbackCtx = { ...ctx, usedComplexParsing };
  const matchedRules: RuleMatch[] = [];
  const explicitPerCommand: RuleMatch[][] = [];
  const dangerous = new Set<string[]>();
  commands.forEach((command, index) => {
    const explicit = execPolicy.matchesForCommand(command);
    explicitPerCommand.push(explicit);
    if (explicit.length > 0) {
      matchedRules.push(...explicit);
      return;
    }
    const verdict = verdictOf(index);
    if (verdict.danger !== undefined) dangerous.add(command);
    matchedRules.push({ kind: 'heuristics', command, decision: heuristicDecision(verdict, fallbackCtx) });
  });
  const decision = strictestDecision(matchedRules.map((match) => match.decision)) ?? 'allow';
  const anyRuleMatched = matchedRules.some((match) => match.kind === 'prefix');
  const amendmentAllowed = !usedComplexParsing;
  const requested = amendmentAllowed && !anyRuleMatched
    ? requestedAmendment(ctx.prefixRule, execPolicy, commands, (command) => heuristicDecision(verdictOf(commands.indexOf(command)), fallbackCtx))
    : undefined;

  let requirement: ExecApprovalRequirement;
  if (decision === 'forbidden') {
    requirement = { kind: 'forbidden', reason: forbiddenReason(argv, matchedRules) };
  } else if (decision === 'prompt') {
    const promptIsRule = matchedRules.some((match) => match.kind === 'prefix' && match.decision === 'prompt');
    const dangerReason = matchedRules.some((match) => match.kind === 'heuristics' && match.decision === 'prompt' && dangerous.has(match.command))
      ? (commands.map((_, index) => verdictOf(index).danger).find((reason) => reason !== undefined) ?? whole.danger)
      : undefined;
    const isDangerous = dangerReason !== undefined;
    const rejection = promptRejectedByPolicy(ctx.policy, promptIsRule, isDangerous);
    if (rejection !== undefined) {
      requirement = { kind: 'forbidden', reason: rejection };
    } else {
      requirement = { kind: 'needs-approval' };
      const reason = promptReason(argv, matchedRules) ?? (isDangerous ? `\`${shlexJoin(argv)}\` is potentially destructive, so it always needs approval: ${dangerReason}` : undefined);
      if (reason !== undefined) requirement.reason = reason;
      // Never offer "always allow" for a destructive command: each one deserves its own look.
      const amendment = isDangerous ? undefined : requested ?? (amendmentAllowed && !promptIsRule ? firstHeuristic(matchedRules, 'prompt') : undefined);
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
