// Incremental parsing of a patch while the model is still writing it, so front ends can show
// the files and diff lines as they arrive. Only complete lines are parsed. The result is for
// display: a patch is applied only from the finished text (`finish()` or parsePatch).
import { PatchLineParser, PatchParseError, parsePatch } from './parse.js';
import type { Patch, PatchHunk } from './types.js';

export class StreamingPatchParser {
  private readonly lines = new PatchLineParser({ lenientStart: true });
  private text = '';
  private pending = '';
  private snapshot: readonly PatchHunk[] = [];
  private failure: PatchParseError | undefined;

  /**
   * Adds the next piece of the patch text and returns the hunks parsed so far. Never throws:
   * after the first invalid line parsing stops, `error` is set, and the last good hunks stay.
   * The returned array and its hunks are never mutated later (new lines give a new snapshot).
   */
  feed(delta: string): readonly PatchHunk[] {
    this.text += delta;
    if (this.failure || this.lines.ended) return this.snapshot;
    const parts = (this.pending + delta).split('\n');
    this.pending = parts.pop() ?? '';
    if (parts.length === 0) return this.snapshot;
    try {
      for (const line of parts) {
        this.lines.push(line);
        if (this.lines.ended) break;
      }
    } catch (error) {
      if (!(error instanceof PatchParseError)) throw error;
      this.failure = error;
    }
    // Hunks before the previous snapshot's last one cannot change any more: reuse them, so a
    // long patch streamed line by line costs linear time, not quadratic.
    const reusable = Math.max(0, this.snapshot.length - 1);
    this.snapshot = [...this.snapshot.slice(0, reusable), ...this.lines.hunks.slice(reusable).map(cloneHunk)];
    return this.snapshot;
  }

  /** Hunks parsed so far (same value the last `feed` returned). */
  get hunks(): readonly PatchHunk[] {
    return this.snapshot;
  }

  /** The first parse error met while streaming, if any. */
  get error(): PatchParseError | undefined {
    return this.failure;
  }

  /** `*** End Patch` has been seen. */
  get complete(): boolean {
    return this.lines.ended;
  }

  /** All text fed so far. */
  get fullText(): string {
    return this.text;
  }

  /** Parses the whole text with the full (non-streaming) rules; throws PatchParseError. */
  finish(): Patch {
    return parsePatch(this.text);
  }
}

function cloneHunk(hunk: PatchHunk): PatchHunk {
  if (hunk.type !== 'update') return { ...hunk };
  return {
    ...hunk,
    // Only the last chunk can still grow; earlier ones are final and shared as they are.
    chunks: hunk.chunks.map((chunk, index) =>
      index < hunk.chunks.length - 1
        ? chunk
        : { ...chunk, anchors: [...chunk.anchors], oldLines: [...chunk.oldLines], newLines: [...chunk.newLines] },
    ),
  };
}
