// Makes two first requests comparable field by field: each side's own workspace, home and temp
// paths, today's date in the forms prompts use, and ids (UUIDs, opencode's ses_/msg_ ids) become
// placeholders. Nothing else is touched, so every other byte must be equal.
import { dateString, longDate } from '../../src/harness/request-shape.js';

export interface Sides {
  workspace: string;
  home: string;
  /** The temp dir the side's prompt names (a capture's is inside its home). */
  tmp: string;
  now: Date;
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const PREFIXED_ID = /\b(ses|msg|prt|call|toolu|resp|fc)_[0-9A-Za-z]{8,}\b/g;

function text(value: string, sides: Sides): string {
  // Longest first: the temp dir may hold the home (rig's side) or the home the temp dir (a capture's).
  // rig's own checkout is named first: an original installed in it (pi's prompt names its docs)
  // must not have the temp dir replaced inside its path when the checkout itself is under /tmp.
  const paths = ([[process.cwd(), '<REPO>'], [sides.workspace, '<CWD>'], [sides.tmp, '<TMP>'], [sides.home, '<HOME>']] as const).slice().sort((a, b) => b[0].length - a[0].length);
  let out = value;
  for (const [path, placeholder] of paths) out = out.split(path).join(placeholder);
  for (const day of [sides.now, new Date(sides.now.getTime() - 86_400_000), new Date(sides.now.getTime() + 86_400_000)]) {
    out = out.split(day.toISOString().slice(0, 10)).join('<DATE>').split(longDate(day)).join('<DATE>').split(dateString(day)).join('<DATE>');
  }
  return out.replace(UUID, '<ID>').replace(PREFIXED_ID, '<ID>');
}

export function normalizeBody(value: unknown, sides: Sides): unknown {
  if (typeof value === 'string') return text(value, sides);
  if (Array.isArray(value)) return value.map((entry) => normalizeBody(entry, sides));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, normalizeBody(entry, sides)]));
  return value;
}
