// A ToolContext over a temp directory: applyChanges really writes (checking expectedContent like
// the file-change engine), exec runs bash for real, and every call is recorded for assertions.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';
import type { TodoEntry } from '../../../src/protocol/index.js';
import type { ExecOutcome, ExecRequest, FileEdit, ToolContext, ToolSpec } from '../../../src/tools/spec.js';

export interface FakeContext extends ToolContext {
  root: string;
  execCalls: ExecRequest[];
  applied: FileEdit[][];
  plans: TodoEntry[][];
  write(rel: string, content: string | Buffer): string;
  read(rel: string): string;
}

export function fakeContext(options: { exec?: (request: ExecRequest) => ExecOutcome } = {}): FakeContext {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'rig-htools-')));
  // Every harness-tool test makes one of these; left behind they pile up in /tmp by the thousand.
  try {
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  } catch {
    // Made in a beforeAll (shared by a file's tests): that file removes it in its afterAll.
  }
  const execCalls: ExecRequest[] = [];
  const applied: FileEdit[][] = [];
  const plans: TodoEntry[][] = [];
  const ctx: FakeContext = {
    root,
    cwd: root,
    threadId: 'thread-1',
    signal: new AbortController().signal,
    threadState: new Map(),
    execCalls,
    applied,
    plans,
    emitItem: () => {},
    newItemId: () => 'item-1',
    write(rel, content) {
      const path = join(root, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    read(rel) {
      return readFileSync(join(root, rel), 'utf8');
    },
    caps: {
      async exec(request) {
        execCalls.push(request);
        if (options.exec) return options.exec(request);
        return new Promise((resolve) => {
          const argv = request.argv ?? ['bash', '-c', request.command];
          const started = Date.now();
          execFile(argv[0]!, argv.slice(1), { cwd: request.cwd, timeout: request.timeoutMs ?? 0 }, (error, stdout, stderr) => {
            const output = stdout + stderr;
            const timedOut = error !== null && (error as NodeJS.ErrnoException & { killed?: boolean }).killed === true;
            const exitCode = error ? (timedOut ? null : (typeof error.code === 'number' ? error.code : 1)) : 0;
            resolve({ exitCode, output, totalBytes: Buffer.byteLength(output), wallTimeMs: Date.now() - started, timedOut });
          });
        });
      },
      async writeStdin() {
        return { exitCode: 0, output: '', totalBytes: 0, wallTimeMs: 0, timedOut: false };
      },
      async applyChanges(edits) {
        // Like the orchestrator under approval policy never: writes outside the root are refused.
        const outside = edits.find((edit) => !edit.path.startsWith(root));
        if (outside) return { ok: false, message: `writing outside of the project; rejected by user approval settings (${outside.path})` };
        for (const edit of edits) {
          if (edit.kind === 'update' && edit.expectedContent !== undefined) {
            const now = readFileSync(edit.path, 'utf8');
            if (now !== edit.expectedContent) return { ok: false, message: `${edit.path} changed on disk` };
          }
        }
        applied.push(edits);
        for (const edit of edits) {
          if (edit.kind === 'delete') rmSync(edit.path);
          else {
            mkdirSync(dirname(edit.path), { recursive: true });
            writeFileSync(edit.path, edit.content ?? '');
          }
        }
        return { ok: true, message: 'applied' };
      },
      updatePlan(items) {
        plans.push(items);
      },
      attachImage() {},
      canWrite(path) {
        return path.startsWith(root);
      },
    },
  };
  return ctx;
}

export async function call(spec: ToolSpec | undefined, args: unknown, ctx: ToolContext): Promise<{ text: string; success: boolean }> {
  if (!spec) throw new Error('no such tool');
  const result = await spec.handle(args, ctx);
  const text = typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
  return { text, success: result.success };
}
