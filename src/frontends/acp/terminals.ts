// Commands run in the editor's terminals (ACP terminal/*), for a client that offers them. The
// editor runs them outside rig's sandbox, so the engine hands over only commands of threads
// without a sandbox (danger-full-access); see CommandRuntime.clientTerminals in the orchestrator.
// Each run: terminal/create, terminal/wait_for_exit (terminal/kill on interrupt or timeout),
// terminal/output, and always terminal/release.
import type { AgentContext } from '@agentclientprotocol/sdk';
import type { ClientTerminalCommand, ClientTerminals } from '../../protocol/index.js';

export function editorTerminals(editor: AgentContext, sessionId: string): ClientTerminals {
  return {
    async run(command: ClientTerminalCommand, options: { signal: AbortSignal; timeoutMs?: number }) {
      const { terminalId } = await editor.request('terminal/create', {
        sessionId,
        command: command.command,
        args: command.args,
        cwd: command.cwd,
        ...(command.outputByteLimit !== undefined ? { outputByteLimit: command.outputByteLimit } : {}),
      });
      let timedOut = false;
      const kill = () => void editor.request('terminal/kill', { sessionId, terminalId }).catch(() => {});
      const timer = options.timeoutMs !== undefined ? setTimeout(() => ((timedOut = true), kill()), options.timeoutMs) : undefined;
      options.signal.addEventListener('abort', kill, { once: true });
      try {
        if (options.signal.aborted) kill();
        const exit = await editor.request('terminal/wait_for_exit', { sessionId, terminalId });
        const output = await editor.request('terminal/output', { sessionId, terminalId });
        return { exitCode: exit.exitCode ?? null, signal: exit.signal ?? null, output: output.output, truncated: output.truncated, timedOut };
      } finally {
        if (timer) clearTimeout(timer);
        options.signal.removeEventListener('abort', kill);
        await editor.request('terminal/release', { sessionId, terminalId }).catch(() => {});
      }
    },
  };
}
