// The search tools' ripgrep choice for a session: the config's `ripgrep` key goes to the search
// backend, and a choice that cannot be used is said once at session start (searches still work,
// in-process and slower), rather than discovered as slow searches.
import type { RigConfig } from '../config/index.js';
import { configureRipgrep, unusableRipgrepChoice } from '../tools/search/locate.js';

export function setupSearch(config: RigConfig): string[] {
  configureRipgrep(config.ripgrep);
  const unusable = unusableRipgrepChoice();
  if (!unusable) return [];
  return [`searches run in-process (slower) instead of with ripgrep: ${unusable}; fix the path, or remove the setting to use the bundled rg or rg on PATH`];
}
