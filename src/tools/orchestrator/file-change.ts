// The file change runtime: every in-process write (apply_patch and every harness's edit tools)
// is one change set with one file_change item. The "sandbox attempt" of a change set is its commit
// checked against the sandbox's writable roots; without the check it runs with the user's access.
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { relative, isAbsolute } from 'node:path';
import type { ClientFileSystem, FileChangeApprovalEntry, FileChangeEntry, FileChangeItem, FileEdit } from '../../protocol/index.js';
import { summarizeEdits } from '../../patch/summary.js';
import { commitFileEdits } from '../../patch/commit.js';
import { canWritePath, explainWriteDenied } from '../../exec/sandbox/index.js';
import { decidePatchApproval, type ApprovalAction } from '../../policy/index.js';
import type { FileContent } from '../../checkpoints/index.js';
import type { FileChangeOutcome, TurnServices } from '../spec.js';
import type { OrchestratorOptions } from './options.js';
import { orchestrate, type ApprovalQuestion, type AskContext, type Attempt, type Runtime } from './pipeline.js';
import { changeDiff } from './change-diff.js';

export const USER_DECLINED_PATCH = 'patch rejected by user';

const HOW_TO_ALLOW_CHANGE =
  'To allow it: make the path writable (-s workspace-write, or --add-dir DIR for a directory outside the workspace), ' +
  'or make the change in an interactive session (`rig resume <thread id>`), where you are asked.';

function touchedPaths(edits: readonly FileEdit[]): string[] {
  const paths: string[] = [];
  for (const edit of edits) {
    paths.push(edit.path);
    if (edit.moveTo) paths.push(edit.moveTo);
  }
  return paths;
}

/** What a file held before the change: the content the edit was computed against, else the disk. */
function contentBefore(edit: FileEdit): string {
  if (edit.kind === 'add') return '';
  if (edit.expectedContent !== undefined) return edit.expectedContent;
  try {
    return readFileSync(edit.path, 'utf8');
  } catch {
    return '';
  }
}

class FileChangeRuntime implements Runtime<FileChangeOutcome> {
  readonly retryTool = 'apply_patch' as const;
  private readonly paths: string[];
  private readonly item: FileChangeItem;

  constructor(
    private readonly edits: FileEdit[],
    private readonly options: OrchestratorOptions,
    private readonly services: TurnServices,
  ) {
    this.paths = touchedPaths(edits);
    const changes: FileChangeEntry[] = edits.map((edit) => {
      const diff = changeDiff(edit);
      return { path: edit.moveTo ?? edit.path, kind: edit.kind, ...(diff !== undefined ? { diff } : {}) };
    });
    this.item = { id: services.newItemId(), type: 'file_change', changes, status: 'in_progress' };
    services.emit({ type: 'item.started', item: this.item });
  }

  canWrite(absolutePath: string): boolean {
    return canWriteFor(this.options, absolutePath);
  }

  private async runThroughClient(client: Required<Pick<ClientFileSystem, 'writeTextFile'>>, attempt: Attempt): Promise<FileChangeOutcome> {
    try {
      const text = await writeThroughClient({ edits: this.edits, canWrite: (path) => this.canWrite(path), display: (path) => this.display(path) }, client, attempt.sandboxed);
      this.services.emit({ type: 'item.completed', item: { ...this.item, status: 'completed' } });
      return { ok: true, message: text };
    } catch (error) {
      return this.failed(error instanceof Error ? error.message : String(error));
    }
  }

  private display(absolutePath: string): string {
    const rel = relative(this.services.cwd, absolutePath);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : absolutePath;
  }

  describe(): string {
    return `the change to ${this.paths.map((path) => this.display(path)).join(', ')}`;
  }

  async decide(): Promise<ApprovalAction> {
    const { options } = this;
    const action = decidePatchApproval({
      policy: options.approvalPolicy,
      sandboxMode: options.sandbox.mode,
      allPathsWritable: this.paths.every((path) => this.canWrite(path)),
      empty: this.edits.length === 0,
      yolo: options.yolo,
      approvedForSession: options.approvalCache.arePathsApproved(this.paths),
    });
    if (action.action !== 'reject') return action;
    const denied = this.paths.find((path) => !this.canWrite(path));
    return denied ? { ...action, reason: `${action.reason} (${explainWriteDenied(denied, options.sandbox)})` } : action;
  }

  async question(context: AskContext): Promise<ApprovalQuestion> {
    // A person deciding needs the diff even where the edit did not read the file first.
    const changes: FileChangeApprovalEntry[] = this.edits.map((edit) => ({
      path: edit.path,
      kind: edit.kind,
      ...(edit.moveTo ? { move_to: edit.moveTo } : {}),
      diff: changeDiff(edit, contentBefore(edit)) ?? '',
    }));
    return {
      kind: 'file_change',
      item_id: this.item.id,
      paths: this.paths,
      changes,
      sandboxed: context.sandboxed && !this.options.yolo,
      ...(context.reason ? { reason: context.reason } : {}),
    };
  }

  rememberApproval(): void {
    this.options.approvalCache.approvePaths(this.paths);
  }

  readonly declinedByUser = USER_DECLINED_PATCH;

  declined(message: string): FileChangeOutcome {
    return this.failed(message);
  }

  withNote(outcome: FileChangeOutcome, note: string): FileChangeOutcome {
    return { ...outcome, message: `${outcome.message}\n\n${note}` };
  }

  /** A change set is checked before it is committed, never denied by the sandbox afterwards. */
  denial(): undefined {
    return undefined;
  }

  /** The reason goes on the item too, so the person reading the run sees what the model was told. */
  private failed(message: string): FileChangeOutcome {
    this.services.emit({ type: 'item.completed', item: { ...this.item, status: 'failed', error: { message } } });
    return { ok: false, message };
  }

  /** The writable-root check is made before the commit (decide); the commit itself is not retried. */
  deniedBySandbox(): boolean {
    return false;
  }

  async run(attempt: Attempt): Promise<FileChangeOutcome> {
    // For undo: each touched file as it was, read only when the turn keeps checkpoints.
    const checkpoint = this.services.checkpoint;
    const before = checkpoint ? this.paths.map((path) => ({ path, content: fileState(path) })) : [];
    const client = this.options.clientFiles?.();
    const write = client?.writeTextFile?.bind(client);
    // Deletes and renames have no client call: those change sets stay rig's own, atomic commit.
    if (write && this.edits.every((edit) => edit.kind !== 'delete' && edit.moveTo === undefined)) {
      const outcome = await this.runThroughClient({ writeTextFile: write }, attempt);
      if (outcome.ok) checkpoint?.recordFiles(before.map(({ path, content }) => ({ path, before: content, after: fileState(path) })));
      return outcome;
    }
    try {
      const { summary } = await commitFileEdits(this.edits, {
        ...(attempt.sandboxed ? { canWrite: (path: string) => this.canWrite(path) } : {}),
        displayPath: (path) => this.display(path),
      });
      checkpoint?.recordFiles(before.map(({ path, content }) => ({ path, before: content, after: fileState(path) })));
      this.services.emit({ type: 'item.completed', item: { ...this.item, status: 'completed' } });
      return { ok: true, message: summary.text };
    } catch (error) {
      return this.failed(error instanceof Error ? error.message : String(error));
    }
  }
}

/** The writes of a change set, made by the client (its buffers), one file after another. */
async function writeThroughClient(
  runtime: { edits: readonly FileEdit[]; canWrite(path: string): boolean; display(path: string): string },
  client: Required<Pick<ClientFileSystem, 'writeTextFile'>>,
  sandboxed: boolean,
): Promise<string> {
  for (const edit of runtime.edits) {
    if (sandboxed && !runtime.canWrite(edit.path)) throw new Error(`${runtime.display(edit.path)} is outside the sandbox's writable roots`);
  }
  for (const edit of runtime.edits) {
    try {
      await client.writeTextFile(edit.path, edit.content ?? '');
    } catch (error) {
      throw new Error(`the editor could not write ${runtime.display(edit.path)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return summarizeEdits(runtime.edits, (path) => runtime.display(path)).text;
}

/** A file's state for a checkpoint (the link itself for a symlink). */
function fileState(path: string): FileContent {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return { kind: 'symlink', target: readlinkSync(path) };
    if (!st.isFile()) return { kind: 'unknown', reason: 'not a regular file' };
    return { kind: 'file', data: readFileSync(path), mode: st.mode & 0o7777 };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'absent' } : { kind: 'unknown', reason: `unreadable (${(error as Error).message})` };
  }
}

export function canWriteFor(options: OrchestratorOptions, absolutePath: string): boolean {
  if (options.yolo) return true;
  return canWritePath(absolutePath, options.sandbox);
}

export function applyFileChanges(edits: FileEdit[], options: OrchestratorOptions, services: TurnServices): Promise<FileChangeOutcome> {
  return orchestrate(new FileChangeRuntime(edits, options, services), services, {
    approvalPolicy: options.approvalPolicy,
    howToAllow: HOW_TO_ALLOW_CHANGE,
  });
}
