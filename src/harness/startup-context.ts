// Reads what a startup-context message shows about the workspace. Kept apart from request shaping
// (which is pure): the caller reads this once per session and passes it in ShapeEnvironment.
import { readdirSync } from 'node:fs';

/**
 * The cwd followed by up to `limit` non-hidden entries sorted by name, directories suffixed `/`,
 * drawn with the `├───` / `└───` connectors, plus a line when entries were left out.
 */
export function folderListing(cwd: string, limit = 20): string {
  let entries: { name: string; dir: boolean }[];
  try {
    entries = readdirSync(cwd, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith('.'))
      .map((entry) => ({ name: entry.name, dir: entry.isDirectory() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return `${cwd}/\n(unreadable)`;
  }
  const shown = entries.slice(0, limit);
  const more = entries.length - shown.length;
  const lines = [`${cwd}/`];
  shown.forEach((entry, index) => {
    const last = index === shown.length - 1 && more === 0;
    lines.push(`${last ? '└───' : '├───'}${entry.name}${entry.dir ? '/' : ''}`);
  });
  if (more > 0) lines.push(`└───... (${more} more)`);
  return lines.join('\n');
}
