// A process killed mid-write leaves the file cut at any byte: the reader must return exactly the
// records whose JSON is complete before the cut, with no warnings, whatever the byte.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { assistantText, userText } from '../../src/protocol/index.js';
import { parseRollout, responseItemRecord } from '../../src/store/index.js';

const records = [
  { timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id: 'x', timestamp: 't', cwd: '/', originator: 'rig', cli_version: '0' } },
  { timestamp: '2026-01-01T00:00:01.000Z', ...responseItemRecord(userText('héllo wörld — ünïcode ✓')) },
  { timestamp: '2026-01-01T00:00:02.000Z', ...responseItemRecord(assistantText('line1\nline2 "quoted" \\ back')) },
  { timestamp: '2026-01-01T00:00:03.000Z', ...responseItemRecord({ type: 'function_call', call_id: 'c', name: 'shell', arguments: '{"a":1}' }) },
];
const lines = records.map((r) => JSON.stringify(r) + '\n');
const full = Buffer.from(lines.join(''), 'utf8');
const ends: number[] = [];
lines.reduce((offset, line) => {
  const end = offset + Buffer.byteLength(line);
  ends.push(end);
  return end;
}, 0);

it('returns the complete records before any cut point', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: full.length }), (cut) => {
      const result = parseRollout(full.subarray(0, cut).toString('utf8'), 'r.jsonl');
      // A record whose JSON is whole but whose newline was lost is still a record.
      const complete = ends.filter((end) => end - 1 <= cut).length;
      expect(result.warnings).toEqual([]);
      expect(result.records).toEqual(records.slice(0, complete));
    }),
    { numRuns: 300 },
  );
});
