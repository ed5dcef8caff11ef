// One thread's view of the agents service: the AgentsCapability its tools call. Targets are task
// paths (/root/implement_fix), paths relative to the caller (implement_fix), nicknames or thread ids.
import { AgentToolError, type AgentStatusValue, type AgentsCapability, type AgentView, type WaitOutcome } from '../../tools/agents/capability.js';
import type { AgentsService } from './service.js';
import { settleAgentWorktree } from './isolation.js';
import type { AgentNode } from './tree.js';

function isFinal(node: AgentNode): boolean {
  return !node.running && node.status !== 'pending_init' && node.status !== 'running';
}

/** Resolves when `node.wake()` runs, `signal` aborts or `timeoutMs` passes (true: woken). */
function nextWake(node: AgentNode, timeoutMs: number | undefined, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const done = (woken: boolean | Error) => {
      node.waiters.delete(wake);
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (woken instanceof Error) reject(woken);
      else resolve(woken);
    };
    const wake = () => done(true);
    const onAbort = () => done(new AgentToolError('the wait was interrupted'));
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => done(false), timeoutMs);
    if (signal.aborted) return onAbort();
    node.waiters.add(wake);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function threadAgentsCapability(service: AgentsService, self: AgentNode): AgentsCapability {
  const find = (target: string): AgentNode | undefined => {
    const wanted = target.trim();
    const tree = self.tree;
    const direct = tree.nodes.get(wanted) ?? tree.byPath(wanted) ?? tree.byPath(`${self.path}/${wanted.replace(/^\/+/, '')}`);
    if (direct && direct !== self) return direct;
    for (const node of tree.nodes.values()) if (node !== self && node.parent && node.nickname === wanted) return node;
    return undefined;
  };
  const need = (target: string): AgentNode => {
    const node = find(target);
    if (!node) {
      const known = [...self.tree.nodes.values()].filter((n) => n.parent).map((n) => n.path);
      throw new AgentToolError(`no agent "${target}" in this session${known.length ? ` (agents: ${known.join(', ')})` : ' (none has been spawned)'}; address agents by task path, e.g. ${known[0] ?? '/root/task_name'}`);
    }
    return node;
  };
  const result = async (node: AgentNode, signal: AbortSignal): Promise<AgentView> => {
    while (!isFinal(node)) {
      try {
        await nextWake(node, undefined, signal);
      } catch (error) {
        // The caller was interrupted: its child stops with it.
        const handle = service.handle(node);
        if (handle.isRunning) await handle.interrupt();
        throw error;
      }
    }
    return node.view();
  };
  return {
    get enabled() {
      return self.agents.enabled;
    },
    async spawn(request, signal) {
      const node = await service.spawn(self, request);
      node.foreground = request.foreground === true;
      if (signal.aborted) {
        await service.handle(node).close();
        throw new AgentToolError('the spawn was interrupted');
      }
      service.startTurn(node, request.message);
      return node.view();
    },
    find: (target) => find(target)?.view(),
    async message(target, text, options) {
      const node = need(target);
      const handle = service.handle(node);
      if (options.interrupt && handle.isRunning) await handle.interrupt();
      if (handle.isRunning) handle.steer({ text });
      else if (options.startTurn) {
        // Whoever waits for this turn's result itself needs no notification of it.
        node.foreground = options.foreground === true;
        service.startTurn(node, text);
      }
      else node.pendingInput.push(text);
      return node.view();
    },
    async wait(targets, timeoutMs, signal): Promise<WaitOutcome> {
      const watched = targets?.map(need);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const updated = watched
          ? watched.filter(isFinal)
          : self.mailbox.splice(0);
        if (updated.length > 0) {
          const views = updated.map((node) => node.view());
          if (!watched) service.deliverNotifications(self, views);
          return { updated: views, timedOut: false };
        }
        const children = watched ?? self.children;
        if (!watched && !children.some((child) => child.running || child.status === 'pending_init')) return { updated: [], timedOut: false };
        const left = deadline - Date.now();
        if (left <= 0 || !(await nextWake(self, left, signal))) return { updated: [], timedOut: true };
      }
    },
    result: (target, signal) => result(need(target), signal),
    async interrupt(target): Promise<AgentStatusValue> {
      const node = need(target);
      const previous = node.status;
      const handle = service.handle(node);
      if (handle.isRunning) await handle.interrupt();
      return previous;
    },
    async close(target): Promise<AgentStatusValue> {
      const node = need(target);
      const previous = node.status;
      await service.loaded(node)?.close();
      node.closed = true;
      return previous;
    },
    async resume(target) {
      const node = need(target);
      if (!node.closed) return node.view();
      await service.resume(node);
      return node.view();
    },
    list: (prefix) =>
      [...self.tree.nodes.values()].filter((node) => node.parent && (!prefix || node.path.startsWith(prefix))).map((node) => node.view()),
    takeNotifications: () => self.mailbox.splice(0).map((node) => node.view()),
    async settleWorktree(target) {
      const node = need(target);
      const worktree = node.worktree;
      if (!worktree) return undefined;
      const settled = await settleAgentWorktree(worktree);
      if (!settled.kept) node.worktree = undefined;
      return settled;
    },
  };
}
