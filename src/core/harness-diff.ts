// `rig harness diff <id> [--wire W] [--json]`: what differs between the built-in profile and the
// capture of its original on this machine: request fields, tools and their schemas, system prompt
// and tool description sizes. The built-in side is rig's first request with only built-in profiles
// in sight (a throwaway RIG_HOME); the captured side is the original's own first request as
// recorded by `rig harness capture`. Nothing is sent anywhere.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { compareSummaries, summarizeRequest, type SummaryDifference } from '../harness/capture/index.js';
import type { WireApi } from '../model/types.js';
import { readCaptures, harnessDir } from './harness-capture-files.js';
import { defaultCommandIo as defaultHarnessIo, type CommandIo as HarnessIo } from './command-io.js';
import { buildFirstRequest } from './harness-preview.js';

export interface DiffFlags {
  wire?: string;
  json?: boolean;
}

export interface WireDiff {
  wire: WireApi;
  model: string;
  prompt_bytes: { builtin: number; captured: number };
  tool_description_bytes: { name: string; builtin?: number; captured?: number }[];
  differences: SummaryDifference[];
}

function systemText(wire: WireApi, body: Record<string, unknown>): string {
  const texts = (value: unknown): string =>
    typeof value === 'string' ? value : Array.isArray(value) ? value.map((part: Record<string, unknown>) => String(part['text'] ?? '')).join('\n\n') : '';
  if (wire === 'messages') return texts(body['system']);
  if (typeof body['instructions'] === 'string') return body['instructions'];
  const first = ((wire === 'chat' ? body['messages'] : body['input']) as Record<string, unknown>[] | undefined)?.[0];
  return first && (first['role'] === 'system' || first['role'] === 'developer') ? texts(first['content']) : '';
}

function descriptions(wire: WireApi, body: Record<string, unknown>): Map<string, number> {
  const tools = (body['tools'] ?? []) as Record<string, unknown>[];
  return new Map(
    tools.map((tool) => {
      const fn = wire === 'chat' ? ((tool['function'] ?? {}) as Record<string, unknown>) : tool;
      return [String(fn['name'] ?? fn['type']), Buffer.byteLength(String(fn['description'] ?? ''))];
    }),
  );
}

/** rig's first request with the built-in profile only: a RIG_HOME of its own with a stand-in provider. */
async function builtinRequest(id: string, wire: WireApi, model: string, prompt: string, io: HarnessIo): Promise<Record<string, unknown>> {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'rig-harness-diff-')));
  try {
    const home = join(scratch, 'home');
    const work = join(scratch, 'work');
    mkdirSync(home, { recursive: true });
    mkdirSync(work, { recursive: true });
    execFileSync('git', ['init', '-q', work]);
    writeFileSync(
      join(home, 'config.toml'),
      ['model_provider = "capture"', `model = ${JSON.stringify(model)}`, '', '[model_providers.capture]', 'base_url = "http://127.0.0.1:9/v1"', `wire_api = "${wire}"`, ''].join('\n'),
    );
    const env = { ...io.env, RIG_HOME: home };
    const shown = await buildFirstRequest(id, { model, prompt }, { ...io, env, cwd: work });
    return shown.body;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function diffHarness(id: string, flags: DiffFlags, io: HarnessIo): Promise<WireDiff[]> {
  const captures = readCaptures(harnessDir(io), id).filter((capture) => flags.wire === undefined || capture.wire === flags.wire);
  if (captures.length === 0) {
    throw new Error(
      flags.wire
        ? `no capture of ${id} on ${flags.wire} in ${harnessDir(io)}: run \`rig harness capture ${id} --wire ${flags.wire}\` first`
        : `no capture of ${id} in ${harnessDir(io)}: run \`rig harness capture ${id}\` first`,
    );
  }
  const out: WireDiff[] = [];
  for (const capture of captures) {
    const model = String(capture.body['model'] ?? 'model');
    const ours = await builtinRequest(id, capture.wire, model, capture.prompt, io);
    const theirs = capture.body;
    const oursTools = descriptions(capture.wire, ours);
    const theirsTools = descriptions(capture.wire, theirs);
    out.push({
      wire: capture.wire,
      model,
      prompt_bytes: { builtin: Buffer.byteLength(systemText(capture.wire, ours)), captured: Buffer.byteLength(systemText(capture.wire, theirs)) },
      tool_description_bytes: [...new Set([...oursTools.keys(), ...theirsTools.keys()])].map((name) => ({
        name,
        ...(oursTools.has(name) ? { builtin: oursTools.get(name)! } : {}),
        ...(theirsTools.has(name) ? { captured: theirsTools.get(name)! } : {}),
      })),
      differences: compareSummaries(summarizeRequest(capture.wire, ours, capture.prompt), summarizeRequest(capture.wire, theirs, capture.prompt)),
    });
  }
  return out;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

export function formatDiff(id: string, diffs: WireDiff[]): string {
  const lines: string[] = [];
  for (const diff of diffs) {
    lines.push(`# ${id} on ${diff.wire} (model ${diff.model}): built-in vs captured`);
    lines.push(`system prompt: ${diff.prompt_bytes.builtin} bytes built-in, ${diff.prompt_bytes.captured} bytes captured`);
    const described = diff.tool_description_bytes.map((tool) => `${tool.name} ${tool.builtin ?? '-'}/${tool.captured ?? '-'}`);
    lines.push(`tool descriptions (bytes built-in/captured): ${described.join(', ')}`);
    if (diff.differences.length === 0) lines.push('request fields, tools and schemas: the same');
    for (const difference of diff.differences) lines.push(`  ${difference.at}\n    built-in: ${short(difference.ours)}\n    captured: ${short(difference.theirs)}`);
    lines.push('');
  }
  return `${lines.join('\n')}`;
}

export async function runHarnessDiff(id: string, flags: DiffFlags, io: HarnessIo = defaultHarnessIo()): Promise<number> {
  try {
    const diffs = await diffHarness(id, flags, io);
    io.stdout(flags.json ? `${JSON.stringify(diffs, null, 2)}\n` : formatDiff(id, diffs));
    return 0;
  } catch (error) {
    io.stderr(`rig harness diff: ${(error as Error).message}\n`);
    return 1;
  }
}
