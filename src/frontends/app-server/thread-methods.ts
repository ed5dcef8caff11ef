// thread/* methods: start, resume, fork, list, read, archive, unarchive, name/set, compact/start.
import { resolve as resolvePath } from 'node:path';
import { openThreadCatalog } from '../../core/catalog.js';
import type { ThreadSummary } from '../../core/engine.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import { setThreadName } from '../../core/thread-names.js';
import { goalToWire } from '../../protocol/index.js';
import { ERROR_CODES, type ParamsOf, type ResultOf, type Thread } from '../../protocol/app-server/index.js';
import { RpcError } from './connection.js';
import { threadRequest } from './params.js';
import type { MethodHandler, ServerContext } from './server.js';
import { factsFromRow, historyTurns, loadResult, toThread } from './thread-view.js';

const DEFAULT_PAGE = 50;

/** A failure the client's request caused (unknown thread, bad config, a thread in use elsewhere). */
export function clientError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  return new RpcError(ERROR_CODES.invalidRequest, error instanceof Error ? error.message : String(error));
}

async function attempt<T>(body: () => Promise<T> | T): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw clientError(error);
  }
}

async function withCatalog<T>(context: ServerContext, body: (catalog: Awaited<ReturnType<typeof openThreadCatalog>>) => T): Promise<T> {
  const catalog = await openThreadCatalog(context.engine.home);
  try {
    return body(catalog);
  } finally {
    catalog.close();
  }
}

function storedTurns(context: ServerContext, id: string, cwd: string): Thread['turns'] {
  const read = context.engine.readThread(id, { includeTurns: true });
  return historyTurns(read.turns ?? [], cwd);
}

/** A stored thread as the protocol shows it, from its catalog row (live settings if it is loaded). */
async function storedThread(context: ServerContext, id: string, turns: Thread['turns'] = []): Promise<Thread> {
  const loaded = context.engine.thread(id);
  if (loaded && !loaded.info.rolloutPath) return context.threadOf(loaded, turns);
  const row = await withCatalog(context, (catalog) => catalog.findThread(id));
  if (!row) {
    if (loaded) return context.threadOf(loaded, turns);
    throw new RpcError(ERROR_CODES.invalidRequest, `thread not found: ${id}`);
  }
  return rowThread(context, row, turns);
}

function rowThread(context: ServerContext, row: ThreadSummary, turns: Thread['turns'] = [], names = context.names()): Thread {
  const loaded = context.engine.thread(row.id);
  return toThread(factsFromRow(row, names.get(row.id), loaded, context.bridge.status(row.id)), turns);
}

/** What a resumed or forked thread's view starts from: its stored prompt and creation time. */
async function noteStored(context: ServerContext, handle: ThreadHandle, turns: Thread['turns']): Promise<void> {
  const row = handle.info.rolloutPath ? await withCatalog(context, (catalog) => catalog.findThread(handle.id)).catch(() => undefined) : undefined;
  const preview = row?.title ?? firstUserText(turns);
  context.noteLoaded(handle, preview, row?.createdAt);
}

function firstUserText(turns: Thread['turns']): string {
  for (const turn of turns) {
    for (const item of turn.items) {
      if (item.type === 'userMessage') {
        const text = item.content.find((part) => part.type === 'text');
        if (text && text.type === 'text') return text.text;
      }
    }
  }
  return '';
}

export const THREAD_METHODS: Record<string, MethodHandler> = {
  'thread/start': async (params: ParamsOf<'thread/start'>, context): Promise<ResultOf<'thread/start'>> => {
    const handle = await attempt(() => context.engine.startThread(threadRequest(params, context)));
    context.noteLoaded(handle, '');
    return loadResult(handle, context.threadOf(handle));
  },

  'thread/resume': async (params: ParamsOf<'thread/resume'>, context): Promise<ResultOf<'thread/resume'>> => {
    const handle = await attempt(() => context.engine.resumeThread(params.threadId, threadRequest(params, context)));
    const turns = await attempt(() => storedTurns(context, handle.id, handle.settings.cwd));
    await noteStored(context, handle, turns);
    // As Codex does, a resumed thread's goal is announced (after this response, before any turn).
    const goal = handle.goals.current();
    if (goal) context.notify('thread/goal/updated', { threadId: handle.id, turnId: null, goal: goalToWire(goal) });
    return {
      ...loadResult(handle, context.threadOf(handle, params.excludeTurns ? [] : turns)),
      collaborationMode: null,
      turnsBackwardsCursor: null,
      itemsBackwardsCursor: null,
    };
  },

  'thread/fork': async (params: ParamsOf<'thread/fork'>, context): Promise<ResultOf<'thread/fork'>> => {
    const source = context.engine.thread(params.threadId);
    if (source?.isRunning && !params.lastTurnId) {
      throw new RpcError(ERROR_CODES.invalidRequest, `thread ${params.threadId} is running a turn; interrupt it or give lastTurnId of a finished turn to fork from`);
    }
    const request = { ...threadRequest(params, context), ...(params.lastTurnId ? { atTurn: params.lastTurnId } : {}) };
    const handle = await attempt(() => context.engine.forkThread(params.threadId, request));
    const turns = await attempt(() => storedTurns(context, handle.id, handle.settings.cwd));
    context.noteLoaded(handle, firstUserText(turns));
    return loadResult(handle, context.threadOf(handle, params.excludeTurns ? [] : turns));
  },

  'thread/list': async (params: ParamsOf<'thread/list'>, context): Promise<ResultOf<'thread/list'>> => {
    const cwds = params.cwd === null || params.cwd === undefined ? undefined : (Array.isArray(params.cwd) ? params.cwd : [params.cwd]).map((dir) => resolvePath(context.cwd, dir));
    const rows = await withCatalog(context, (catalog) => catalog.listThreads(params.archived ? { archivedOnly: true } : {}));
    const providers = params.modelProviders?.length ? new Set(params.modelProviders) : undefined;
    const matching = rows
      .filter((row) => !cwds || cwds.includes(row.cwd))
      .filter((row) => !providers || (row.modelProvider !== null && providers.has(row.modelProvider)))
      .filter((row) => !params.searchTerm || row.title.includes(params.searchTerm))
      .sort((a, b) => b.createdAt - a.createdAt);
    const offset = params.cursor ? Number.parseInt(params.cursor, 10) : 0;
    if (!Number.isInteger(offset) || offset < 0) throw new RpcError(ERROR_CODES.invalidParams, `cursor: "${params.cursor}" is not a cursor this server gave out`);
    const limit = params.limit ?? DEFAULT_PAGE;
    const names = context.names();
    const page = matching.slice(offset, offset + limit).map((row) => rowThread(context, row, [], names));
    const next = offset + limit < matching.length ? String(offset + limit) : null;
    return { data: page, nextCursor: next, backwardsCursor: null };
  },

  'thread/loaded/list': (_params: ParamsOf<'thread/loaded/list'>, context): ResultOf<'thread/loaded/list'> => ({
    data: context.engine.loadedThreads.map((handle) => handle.id),
    nextCursor: null,
  }),

  'thread/read': async (params: ParamsOf<'thread/read'>, context): Promise<ResultOf<'thread/read'>> => {
    const loaded = context.engine.thread(params.threadId);
    const cwd = loaded?.settings.cwd ?? '';
    const read = await attempt(() => context.engine.readThread(params.threadId, { includeTurns: Boolean(params.includeTurns) }));
    const turns = params.includeTurns ? historyTurns(read.turns ?? [], read.cwd ?? cwd) : [];
    return { thread: await storedThread(context, read.id, turns) };
  },

  'thread/archive': async (params: ParamsOf<'thread/archive'>, context): Promise<ResultOf<'thread/archive'>> => {
    const row = await attempt(() => context.engine.archiveThread(params.threadId));
    context.notify('thread/archived', { threadId: row.id });
    return {};
  },

  'thread/unarchive': async (params: ParamsOf<'thread/unarchive'>, context): Promise<ResultOf<'thread/unarchive'>> => {
    const row = await attempt(() => context.engine.unarchiveThread(params.threadId));
    context.notify('thread/unarchived', { threadId: row.id });
    return { thread: await storedThread(context, row.id) };
  },

  'thread/name/set': async (params: ParamsOf<'thread/name/set'>, context): Promise<ResultOf<'thread/name/set'>> => {
    const id = context.engine.thread(params.threadId)?.id ?? (await withCatalog(context, (catalog) => catalog.findThread(params.threadId)))?.id;
    if (!id) throw new RpcError(ERROR_CODES.invalidRequest, `thread not found: ${params.threadId}`);
    const name = await attempt(() => setThreadName(context.engine.home, id, params.name));
    // A loaded thread also records it in its rollout (the title listings and the TUI show).
    const loaded = context.engine.thread(id);
    if (loaded) await attempt(() => loaded.setName(name));
    context.notify('thread/name/updated', { threadId: id, threadName: name });
    return {};
  },

  'thread/compact/start': (params: ParamsOf<'thread/compact/start'>, context): ResultOf<'thread/compact/start'> => {
    const handle = context.loaded(params.threadId);
    if (handle.isRunning) throw new RpcError(ERROR_CODES.invalidRequest, `thread ${handle.id} is running a turn; compact it after the turn ends`);
    void handle.compact().done;
    return {};
  },
};

