// What the terminal can show, from the environment: NO_COLOR (https://no-color.org: present and
// not empty) drops colours, TERM=dumb drops every escape sequence, and OSC 8 links are used only
// where the terminal is known to support them (elsewhere a link's target is printed after it).
import { PLAIN_CAPABILITIES, type Capabilities } from '../text/styled.js';

const LINK_PROGRAMS = new Set(['iTerm.app', 'WezTerm', 'vscode', 'ghostty', 'Hyper', 'rio']);

export function isDumbTerminal(env: NodeJS.ProcessEnv): boolean {
  return env['TERM'] === 'dumb';
}

export function detectCapabilities(env: NodeJS.ProcessEnv): Capabilities {
  if (isDumbTerminal(env)) return PLAIN_CAPABILITIES;
  const color = !(env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '');
  return { color, attributes: true, hyperlinks: supportsHyperlinks(env) };
}

function supportsHyperlinks(env: NodeJS.ProcessEnv): boolean {
  const forced = env['RIG_HYPERLINKS'];
  if (forced === '0' || forced === '1') return forced === '1';
  // tmux and screen pass OSC 8 on only when configured to; do not count on it.
  if (env['TMUX'] || env['STY']) return false;
  const term = env['TERM'] ?? '';
  if (LINK_PROGRAMS.has(env['TERM_PROGRAM'] ?? '')) return true;
  if (env['KITTY_WINDOW_ID'] || term === 'xterm-kitty' || term.startsWith('foot') || term === 'alacritty') return true;
  if (env['WT_SESSION']) return true;
  const vte = Number.parseInt(env['VTE_VERSION'] ?? '', 10);
  return Number.isFinite(vte) && vte >= 5000;
}
