// Progress on stderr: a bar redrawn in place on a terminal, plain lines elsewhere.
import { describe, expect, it } from 'vitest';
import { Progress } from '../../src/eval/progress.js';
import type { TrialResult } from '../../src/eval/results.js';

function result(pass: boolean, task: string): TrialResult {
  return { key: task, task, harness: 'native', model: 'm', trial: 0, pass, status: pass ? 'passed' : 'failed', steps: 2, agent: { end: 'completed' }, timing: { total_ms: 1500 } } as unknown as TrialResult;
}

describe('Progress', () => {
  it('on a terminal redraws one bar with trials done, passing and an ETA', () => {
    let text = '';
    const progress = new Progress(4, [result(true, 'a')], { isTTY: true, columns: 100, write: (chunk: string) => (text += chunk) });
    progress.finish(result(false, 'b'));
    progress.finish(result(true, 'c'));
    expect(text).toContain('resuming: 1 of 4 trials already finished');
    expect(text).toContain('\r\x1b[2K[');
    expect(text).toMatch(/\] 3\/4 trials {2}passing 2 \(67%\) {2}ETA \d+s/);
    expect(text).toContain('[3/4] passed c  native  m  #0  2 steps  1.5s');
  });

  it('elsewhere writes one plain line per trial and no escape codes', () => {
    let text = '';
    const progress = new Progress(2, [], { write: (chunk: string) => (text += chunk) });
    progress.finish(result(false, 'a'));
    progress.finish(result(true, 'b'));
    progress.close();
    expect(text).toBe('[1/2] failed a  native  m  #0  2 steps  1.5s\n[2/2] passed b  native  m  #0  2 steps  1.5s\n');
  });
});
