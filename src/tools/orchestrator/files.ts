// Every in-process file write (apply_patch and every harness's edit tools) goes through here: one
// writable-root check, one approval decision, one atomic commit, one file_change item.
import { relative, isAbsolute } from 'node:path';
import type { FileChangeEntry, FileChangeItem, FileEdit } from '../../protocol/index.js';
import { commitFileEdits } from '../../patch/commit.js';
import { canWritePath, explainWriteDenied } from '../../exec/sandbox/index.js';
import { decidePatchApproval } from '../../policy/index.js';
import type { FileChangeOutcome, TurnServices } from '../spec.js';
import type { OrchestratorOptions } from './options.js';
import { interpretDecision } from './ask.js';
import { changeDiff } from './change-diff.js';

export const USER_DECLINED_PATCH = 'patch rejected by user';

function touchedPaths(edits: readonly FileEdit[]): string[] {
  const paths: string[] = [];
  for (const edit of edits) {
    paths.push(edit.path);
    if (edit.moveTo) paths.push(edit.moveTo);
  }
  return paths;
}

export class FileChangeOrchestrator {
  constructor(
    private readonly options: OrchestratorOptions,
    private readonly services: TurnServices,
  ) {}

  canWrite(absolutePath: string): boolean {
    if (this.options.yolo) return true;
    return canWritePath(absolutePath, this.options.sandbox);
  }

  private display(absolutePath: string): string {
    const rel = relative(this.services.cwd, absolutePath);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : absolutePath;
  }

  async applyChanges(edits: FileEdit[]): Promise<FileChangeOutcome> {
    const { options, services } = this;
    const paths = touchedPaths(edits);
    const changes: FileChangeEntry[] = edits.map((edit) => {
      const diff = changeDiff(edit);
      return { path: edit.moveTo ?? edit.path, kind: edit.kind, ...(diff !== undefined ? { diff } : {}) };
    });
    const item: FileChangeItem = { id: services.newItemId(), type: 'file_change', changes, status: 'in_progress' };
    const fail = (message: string): FileChangeOutcome => {
      // The reason goes on the item too, so the person reading the run sees what the model was told.
      services.emit({ type: 'item.completed', item: { ...item, status: 'failed', error: { message } } });
      return { ok: false, message };
    };
    services.emit({ type: 'item.started', item });

    const allPathsWritable = paths.every((path) => this.canWrite(path));
    const action = decidePatchApproval({
      policy: options.approvalPolicy,
      sandboxMode: options.sandbox.mode,
      allPathsWritable,
      empty: edits.length === 0,
      yolo: options.yolo,
      approvedForSession: options.approvalCache.arePathsApproved(paths),
    });
    let checked: boolean;
    switch (action.action) {
      case 'reject': {
        const denied = paths.find((path) => !this.canWrite(path));
        const detail = denied ? ` (${explainWriteDenied(denied, options.sandbox)})` : '';
        return fail(`${action.reason}${detail}`);
      }
      case 'run-sandboxed':
        checked = true;
        break;
      case 'run-unsandboxed':
        checked = false;
        break;
      case 'ask': {
        const answer = interpretDecision(
          await services.askApproval({
            kind: 'file_change',
            item_id: item.id,
            paths,
            ...(action.reason ? { reason: action.reason } : {}),
          }),
        );
        if (!answer.approved) return fail(USER_DECLINED_PATCH);
        if (answer.forSession) options.approvalCache.approvePaths(paths);
        checked = action.thenRun === 'sandboxed';
        break;
      }
    }
    try {
      const { summary } = await commitFileEdits(edits, {
        ...(checked ? { canWrite: (path: string) => this.canWrite(path) } : {}),
        displayPath: (path) => this.display(path),
      });
      services.emit({ type: 'item.completed', item: { ...item, status: 'completed' } });
      return { ok: true, message: summary.text };
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
  }
}
