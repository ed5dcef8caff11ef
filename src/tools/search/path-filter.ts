// The fallback's `--glob`/`--type` filter, read as rg reads it: a glob without `/` matches the
// file name at any depth, one with `/` is relative to the search root; the last matching glob
// decides; a glob decision overrides ignore files (so `--glob '*.js'` finds an ignored .js file);
// with any include glob, a file no glob matches is left out. Extensions narrow files further.
import { relative } from 'node:path';
import type { GrepQuery } from './types.js';

/** 'include' and 'exclude' override ignore files; undefined leaves the decision to them. */
export type Override = (absolute: string, isDir: boolean) => 'include' | 'exclude' | undefined;

export function anyDepth(pattern: string): string {
  return pattern.includes('/') ? pattern.replace(/^\//, '') : `**/${pattern}`;
}

export async function compileOverride(query: Pick<GrepQuery, 'root' | 'globs' | 'excludes' | 'extensions'>): Promise<Override | undefined> {
  if (query.globs.length === 0 && query.excludes.length === 0 && !query.extensions) return undefined;
  const { default: picomatch } = await import('picomatch');
  const options = { dot: true, posix: true };
  const rules = [
    ...query.globs.map((glob) => (glob.startsWith('!') ? { negated: true, glob: glob.slice(1) } : { negated: false, glob })),
    ...query.excludes.map((glob) => ({ negated: true, glob: glob.replace(/^!/, '') })),
  ].map((rule) => ({ negated: rule.negated, match: picomatch(anyDepth(rule.glob), options) }));
  const hasInclude = rules.some((rule) => !rule.negated);
  const extensions = query.extensions?.map((ext) => `.${ext}`);
  return (absolute, isDir) => {
    if (!isDir && extensions && !extensions.some((ext) => absolute.endsWith(ext))) return 'exclude';
    const rel = relative(query.root, absolute);
    for (let i = rules.length - 1; i >= 0; i--) {
      const rule = rules[i]!;
      if (rule.match(rel)) return rule.negated ? 'exclude' : 'include';
    }
    return !isDir && hasInclude ? 'exclude' : undefined;
  };
}
