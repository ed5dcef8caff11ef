// Running a slash command line: the TUI's own commands here, the session's through the port.
import type { TuiApp } from './app.js';
import { parseCommandLine, renderHelp } from './commands.js';
import { clipboardCopy } from './terminal/ansi.js';
import { renderMarkdown } from './view/markdown.js';
import { renderItem } from './view/items.js';
import { RewindChooser } from './view/rewind-chooser.js';

export function runSlashCommand(app: TuiApp, text: string): void {
  const parsed = parseCommandLine(text);
  if (!parsed) return;
  const { name, args } = parsed;
  const state = app.state;
  const own = app.port.commands().some((spec) => spec.name === name);
  if (!own) {
    switch (name) {
      case 'help':
        state.noteLines((context) => renderHelp(app.allCommands(), context.width));
        return;
      case 'quit':
      case 'exit':
        void app.exit(0);
        return;
      case 'copy': {
        const last = [...state.transcript].reverse().find((entry) => entry.kind === 'item' && entry.item.type === 'agent_message');
        if (!last || last.kind !== 'item' || last.item.type !== 'agent_message') {
          app.flash('nothing to copy yet: no answer in this session', 'warning');
          return;
        }
        app.terminal.write(clipboardCopy(last.item.text));
        app.flash('copied the last answer to the clipboard');
        return;
      }
      case 'reflow':
        app.reflow();
        return;
      default:
        state.note(`unknown command /${name} (/help lists the commands; start the line with a space to send it as text)`, 'error');
        return;
    }
  }
  app.port.runCommand(name, args).then(
    (result) => {
      if (result.text) state.noteLines((context) => renderMarkdown(result.text!, context));
      for (const item of result.items ?? []) state.noteLines((context) => renderItem(item, context));
      if (result.error) state.note(result.error, 'error');
      if (result.pick) app.openPicker(result.pick);
      if (result.rewind) app.chooser = new RewindChooser(result.rewind);
      if (result.compose !== undefined && app.composer.isEmpty) app.composer.setText(result.compose);
      if (result.send) app.send(result.send);
      if (result.exit) void app.exit(0);
      app.requestFrame();
    },
    app.failed(`/${name} failed`),
  );
}
