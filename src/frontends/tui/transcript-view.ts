// The whole transcript as lines: compact for an explicit reflow (as the scrollback shows it),
// expanded and fitted to the width for the pager.
import type { TuiApp } from './app.js';
import type { Line } from './text/styled.js';
import { wrap } from './text/wrap.js';
import { renderItem } from './view/items.js';
import { Pager } from './view/pager.js';
import { theme } from './view/theme.js';

export function renderTranscript(app: TuiApp, options: { expanded?: boolean; fit?: boolean } = {}): Line[] {
  const context = app.state.itemContext({ expanded: Boolean(options.expanded) });
  const out: Line[] = [];
  let gap = false;
  for (const entry of app.state.transcript) {
    const lines = entry.kind === 'item' ? renderItem(entry.item, context) : entry.render(context);
    if (lines.length === 0) continue;
    if (gap) out.push([]);
    out.push(...lines);
    gap = lines[lines.length - 1]!.length > 0;
  }
  if (options.expanded) {
    // What is still in progress, at the end.
    for (const running of app.state.running.values()) {
      if (running.item.type !== 'command_execution') continue;
      out.push([], [{ text: '⠿ ', style: theme.spinner }, { text: `Running ${running.item.command}`, style: theme.bold }]);
      out.push(...running.output.replace(/\n+$/, '').split('\n').map((line) => [{ text: `  ${line}`, style: theme.dim }]));
    }
  }
  if (!options.fit) return out;
  const width = Math.max(1, app.terminal.columns);
  return out.flatMap((line) => (line.length === 0 ? [line] : wrap(line, { width, mode: 'live' })));
}

export function openPager(app: TuiApp): Pager {
  return new Pager(renderTranscript(app, { expanded: true, fit: true }), app.terminal.rows);
}
