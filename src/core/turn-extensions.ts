// What a loaded thread adds to each of its turns: hooks (core/hook-points.ts), checkpoints of the
// files the turn changed (core/checkpointing.ts), skill bodies for `$name` mentions, and Codex's
// `notify` program after a completed turn. The Thread sees only the TurnExtension interface.
import type { ConversationItem, UserInput } from '../protocol/index.js';
import { runNotify } from '../hooks/index.js';
import type { PromptVerdict, ThreadExtensions, TurnExtension, TurnResult } from './thread-types.js';
import { hookContextItem, type ThreadHooks } from './hook-points.js';
import type { ThreadCheckpoints } from './checkpointing.js';
import { takeUndoNotes } from './undo-notes.js';

export interface ExtensionParts {
  threadId: string;
  cwd: string;
  hooks?: ThreadHooks;
  checkpoints?: ThreadCheckpoints;
  /** Context items for a prompt's `$name` mentions (skills). */
  mentionItems?: (text: string) => ConversationItem[];
  /** Codex's `notify` argv. */
  notify?: readonly string[];
  /** The front end, for notify's `client`. */
  client?: string;
  warn(text: string): void;
}

export class ThreadExtensionSet implements ThreadExtensions {
  constructor(private readonly parts: ExtensionParts) {}

  beginTurn(turnId: string, signal: AbortSignal): TurnExtension {
    const { hooks, checkpoints, mentionItems, warn } = this.parts;
    const recording = checkpoints?.beginTurn(turnId);
    let stopReason: string | undefined;
    let stopHookActive = false;
    const inputs: string[] = [];
    const turn = { id: turnId, signal, requestStop: (reason: string) => (stopReason ??= reason) };
    const extension: TurnExtension = {
      ...(recording ? { services: { checkpoint: recording } } : {}),
      beforePrompt: (input: UserInput): PromptVerdict | Promise<PromptVerdict> => {
        inputs.push(input.text);
        const items: ConversationItem[] = [...(hooks?.takeQueuedContext() ?? []), ...(checkpoints ? takeUndoNotes(checkpoints.store.dir, this.parts.cwd) : [])];
        const mentioned = mentionItems?.(input.text) ?? [];
        if (!hooks?.has('UserPromptSubmit')) return { items: [...items, ...mentioned] };
        return hooks.run('UserPromptSubmit', { prompt: input.text }, turnId, signal).then((submitted): PromptVerdict => {
          if (submitted?.blocked || submitted?.stop) {
            const why = submitted.reason ?? submitted.stopReason ?? 'no reason given';
            return { items, blocked: `a UserPromptSubmit hook blocked the prompt: ${why}` };
          }
          for (const text of submitted?.additionalContexts ?? []) items.push(hookContextItem('UserPromptSubmit', text));
          return { items: [...items, ...mentioned] };
        });
      },
      stopReason: () => stopReason,
      end: async (result: TurnResult) => {
        if (recording) {
          try {
            await recording.finish();
          } catch (error) {
            warn(`checkpoints: this turn's changes could not be recorded for undo: ${(error as Error).message}`);
          }
        }
        if (result.status === 'interrupted') await hooks?.run('Interrupt', {}, turnId);
        if (result.status === 'completed' && this.parts.notify?.length) {
          const started = await runNotify(this.parts.notify, {
            threadId: this.parts.threadId,
            turnId,
            cwd: this.parts.cwd,
            ...(this.parts.client ? { client: this.parts.client } : {}),
            inputMessages: inputs,
            lastAssistantMessage: result.lastAgentMessage ?? null,
          });
          if (started.error) warn(started.error);
        }
      },
    };
    if (hooks?.active) {
      extension.callTool = (call, run) => hooks.toolCall(call, run, turn);
      extension.afterAnswer = async (lastAgentMessage) => {
        const stopped = await hooks.run('Stop', { stop_hook_active: stopHookActive, last_assistant_message: lastAgentMessage ?? null }, turnId, signal);
        if (!stopped || stopped.stop || !stopped.blocked || stopped.continuation.length === 0) return undefined;
        stopHookActive = true;
        return stopped.continuation.join('\n\n');
      };
    }
    return extension;
  }
}
