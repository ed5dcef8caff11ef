// `rig eval --replay RUN_DIR`: every recorded trial runs again against its recorded model
// responses (rig's replay provider, `rig exec --replay ROLLOUT`), in a workspace at the recorded
// path, so a harness or engine change can be checked offline. Per trial it reports where the new
// run departs from the recording:
//   request    - the harness now builds a different first request (prompt, tools, request shape)
//   tool_calls - the replay provider found different tool calls sent back, or more requests
//   history    - the conversation (messages, calls) differs from the recorded one
//   outcome    - the check now scores differently
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TrialSpec } from './matrix.js';
import type { Divergence, TrialResult } from './results.js';
import type { RunDir, RunManifest } from './run-dir.js';
import type { TrialArtifacts, TrialContext } from './trial.js';
import { describeRequestChange, fingerprintKey, type Fingerprints } from './fingerprint.js';
import { describeHistoryChange, historyLines } from './history.js';

export interface ReplayPlan {
  specs: TrialSpec[];
  contextFor: (spec: TrialSpec) => Partial<TrialContext>;
  review: (spec: TrialSpec, result: TrialResult, artifacts: TrialArtifacts) => TrialResult;
}

export function readFingerprints(run: RunDir): Fingerprints | undefined {
  const file = join(run.dir, 'harnesses.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Fingerprints) : undefined;
}

export function planReplay(source: RunDir, sourceManifest: RunManifest, recordedPrints: Fingerprints | undefined, currentPrints: Fingerprints): ReplayPlan {
  const recorded = new Map<string, TrialResult>();
  for (const result of source.results.read()) {
    if (result.rollout && existsSync(join(source.dir, result.rollout)) && result.thread_id) recorded.set(result.key, result);
  }
  const specs = sourceManifest.specs.filter((spec) => recorded.has(spec.key));
  const requestChange = new Map<string, string | undefined>();
  for (const spec of specs) {
    const key = fingerprintKey(spec.harness, spec.settings.provider, spec.model);
    if (requestChange.has(key)) continue;
    const before = recordedPrints?.[key];
    requestChange.set(key, before === undefined ? undefined : describeRequestChange(before, currentPrints[key]));
  }
  return {
    specs,
    contextFor(spec) {
      const original = recorded.get(spec.key)!;
      return { replayFile: join(source.dir, original.rollout!), ...(original.workspace ? { workspacePath: original.workspace } : {}) };
    },
    review(spec, result, artifacts) {
      const original = recorded.get(spec.key)!;
      const divergences: Divergence[] = [];
      const request = requestChange.get(fingerprintKey(spec.harness, spec.settings.provider, spec.model));
      if (request) divergences.push({ kind: 'request', message: request });
      const agentError = result.agent.error ?? '';
      if (/replay: /.test(agentError)) divergences.push({ kind: 'tool_calls', message: agentError.slice(agentError.indexOf('replay: ') + 8).split('\n').slice(0, 4).join(' ') });
      else if (result.agent.end !== 'completed' && original.agent.end === 'completed') divergences.push({ kind: 'tool_calls', message: `the replayed agent ended ${result.agent.end}${agentError ? `: ${agentError.split('\n')[0]}` : ''}` });
      const before = readFileSync(join(source.dir, original.rollout!), 'utf8');
      if (artifacts.rollout !== undefined) {
        const change = describeHistoryChange(historyLines(before, original.workspace), historyLines(artifacts.rollout, result.workspace));
        if (change) divergences.push({ kind: 'history', message: change });
      }
      if (result.pass !== original.pass) divergences.push({ kind: 'outcome', message: `the check ${result.pass ? 'passes' : 'fails'} now (recorded: ${original.pass ? 'passed' : 'failed'})` });
      return { ...result, divergences };
    },
  };
}
