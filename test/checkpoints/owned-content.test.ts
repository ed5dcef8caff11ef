// A turn's recorded file states keep bytes of their own, never a slice of Node's shared 8 kB pool
// (which a small readFileSync or Buffer.from returns): one slice kept for a turn kept its whole
// pool alive, ~8 kB per small file a long turn created.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownedContent, TurnRecorder, type CheckpointStore, type FileChange, type FileContent } from '../../src/checkpoints/index.js';

const dir = mkdtempSync(join(tmpdir(), 'rig-owned-content-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a small file read gives: a view into a larger, shared buffer. */
function pooledRead(text: string): Buffer {
  const file = join(dir, `f-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, text);
  return readFileSync(file);
}

const ownsItsBytes = (data: Buffer) => data.byteOffset === 0 && data.buffer.byteLength === data.byteLength;

describe('ownedContent', () => {
  it('copies a pooled slice into bytes of its own, with the same bytes and mode', () => {
    const pooled = pooledRead('added in step 3\n');
    expect(ownsItsBytes(pooled)).toBe(false); // the premise: Node pools small reads
    const owned = ownedContent({ kind: 'file', data: pooled, mode: 0o640 }) as Extract<FileContent, { kind: 'file' }>;
    expect(ownsItsBytes(owned.data)).toBe(true);
    expect(owned.data.equals(pooled)).toBe(true);
    expect(owned.mode).toBe(0o640);
  });

  it('keeps a buffer that already owns its bytes, and states without bytes, as they are', () => {
    const own = Buffer.allocUnsafeSlow(16 * 1024).fill(1);
    const file: FileContent = { kind: 'file', data: own, mode: 0o644 };
    expect(ownedContent(file)).toBe(file);
    for (const state of [{ kind: 'absent' }, { kind: 'symlink', target: 'x' }, { kind: 'unknown', reason: 'r' }] as FileContent[]) {
      expect(ownedContent(state)).toBe(state);
    }
  });
});

describe('TurnRecorder', () => {
  it('hands the store every recorded state with bytes of its own: tracker changes and edit-tool text alike', () => {
    let committed: FileChange[] = [];
    // The store's part is only to receive the turn's changes.
    const store = { commitTurn: (_turn: string, _at: string, changes: FileChange[]) => ((committed = changes), undefined) } as unknown as CheckpointStore;
    const turn = new TurnRecorder(store, 'turn-1');
    turn.record([{ path: join(dir, 'a.txt'), before: { kind: 'absent' }, after: { kind: 'file', data: pooledRead('a\n'), mode: 0o644 } }]);
    turn.record([{ path: join(dir, 'b.txt'), before: { kind: 'file', data: pooledRead('b0\n'), mode: 0o644 }, after: { kind: 'file', data: pooledRead('b1\n'), mode: 0o644 } }]);
    turn.recordEdit({ path: join(dir, 'c.txt'), before: 'small before', after: 'small after', mode: 0o644 });
    turn.finish();
    const states = committed.flatMap((change) => [change.before, change.after]).filter((state) => state.kind === 'file');
    expect(states.map((state) => state.data.toString())).toEqual(['a\n', 'b0\n', 'b1\n', 'small before', 'small after']);
    expect(states.map((state) => ownsItsBytes(state.data))).toEqual([true, true, true, true, true]);
  });
});
