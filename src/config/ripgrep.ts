// The `ripgrep` setting (and RIG_RIPGREP, which overrides it): which rg binary the harnesses'
// search tools run. Qwen Code has the same choice as two switches (tools.useRipgrep,
// tools.useBuiltinRipgrep); Codex's npm launcher puts its bundled rg first on PATH.
import { isAbsolute } from 'node:path';

export const RIPGREP_MODES = ['auto', 'bundled', 'system', 'off'] as const;

/** Why a `ripgrep` value is neither a mode nor an absolute path; undefined when it is fine. */
export function ripgrepSettingProblem(value: string): string | undefined {
  const setting = value.trim();
  if (setting === '' || (RIPGREP_MODES as readonly string[]).includes(setting) || isAbsolute(setting)) return undefined;
  return `ripgrep = ${JSON.stringify(value)} is neither ${RIPGREP_MODES.map((mode) => `"${mode}"`).join(', ')} nor an absolute path to an rg binary; rig searches as with "auto"`;
}
