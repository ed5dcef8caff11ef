// Issue 11 item 2: for every built-in profile with a capture of its original
// (test/fixtures/harness-tools/), rig's first request on that wire and model is compared with the
// capture field by field (src/harness/capture/compare.ts): field names and order, setting values,
// system placement, message layout, cache breakpoints, tool names, schemas and extras. Every
// difference that remains must be listed, with its reason, in the profile's
// fidelity.accepted_differences; a listed difference that is gone must be struck from the list.
import { describe, expect, it } from 'vitest';
import { builtinProfileDir, readProfileFile } from '../../src/harness/loader.js';
import { summarizeRequest } from '../../src/harness/capture/summary.js';
import { compareSummaries } from '../../src/harness/capture/compare.js';
import { captureCases, rigFirstRequest, SAMPLE } from './capture-fixtures.js';
import { join } from 'node:path';
import { effectiveSettings } from '../../src/harness/request-settings.js';

const cases = captureCases();

describe('first request against the captured original', () => {
  it('covers every capture file', () => {
    expect(cases.map((entry) => entry.profile).sort()).toEqual(
      ['claude-code', 'claude-code', 'native', 'native', 'opencode', 'opencode', 'opencode', 'pi', 'pi', 'pi', 'qwen-code', 'qwen-code', 'qwen-code'],
    );
  });

  for (const entry of cases) {
    it(`${entry.name}: ${entry.profile} on ${entry.wire} with ${entry.model}`, async () => {
      const body = await rigFirstRequest(entry.profile, entry.wire, entry.model);
      const differences = compareSummaries(summarizeRequest(entry.wire, body, SAMPLE), entry.summary);
      const profile = readProfileFile(join(builtinProfileDir(), `${entry.profile}.json`), 'builtin');
      const accepted = (profile.fidelity?.accepted_differences ?? []).filter((difference) => difference.capture === entry.name);
      const unexplained = differences.filter((difference) => !accepted.some((item) => item.at === difference.at));
      expect(unexplained, 'differences from the capture that the profile does not list').toEqual([]);
      const gone = accepted.filter((item) => !differences.some((difference) => difference.at === item.at));
      expect(gone.map((item) => item.at), 'accepted differences that no longer exist').toEqual([]);
    });
  }
});

describe('claude-code: defer_loading', () => {
  it('is sent only on Messages (for the deferred tools rig can run), and there with the anthropic-beta flag that enables it', async () => {
    const profile = readProfileFile(join(builtinProfileDir(), 'claude-code.json'), 'builtin');
    const runnable = profile.tools.some((tool) => tool.exposure === 'deferred' && tool.capability !== 'unavailable' && tool.extras['defer_loading'] === true);
    for (const wire of ['messages', 'chat', 'responses'] as const) {
      const body = JSON.stringify(await rigFirstRequest('claude-code', wire, 'claude-sonnet-4-6'));
      expect(body.includes('"defer_loading":true'), wire).toBe(wire === 'messages' && runnable);
    }
    expect(effectiveSettings(profile.request, 'messages', 'claude-sonnet-4-6').extraHeaders['anthropic-beta']).toContain('advanced-tool-use-2025-11-20');
    expect(effectiveSettings(profile.request, 'chat', 'claude-sonnet-4-6').extraHeaders).toEqual({});
  });
});
