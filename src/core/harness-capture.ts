// `rig harness capture <agent> [--bin PATH] [--wire W] [--model M] [--refresh] [--json]`: runs the
// user's installed original once per wire against a loopback recorder (no network beyond it, a
// throwaway home and config pointing the original there), takes its first main request (the first
// with tools) and writes $RIG_HOME/harnesses/<id>.json plus its prompt file. From then on rig
// speaks that exact harness: the user profile replaces the built-in one of the same id.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildCapturedProfile,
  CAPTURE_RECIPES,
  findOnPath,
  findRecipe,
  probeVersion,
  runOriginal,
  type CapturedRequest,
  type RecordedRequest,
} from '../harness/capture/index.js';
import { builtinProfileDir, readProfileFile } from '../harness/loader.js';
import type { HarnessProfile } from '../harness/profile.js';
import { wireOfPath } from '../harness/capture/replies.js';
import type { WireApi } from '../model/types.js';
import { bindHarness } from '../tools/harness/registry.js';
import { nativeCapabilities } from '../tools/native/registry.js';
import { harnessDir, storeCaptures, type StoredCapture } from './harness-capture-files.js';
import { defaultCommandIo as defaultHarnessIo, type CommandIo as HarnessIo } from './command-io.js';

export const CAPTURE_PROMPT = 'Reply with the single word "ready" and stop. Do not use any tool.';
const WIRES: readonly WireApi[] = ['responses', 'chat', 'messages'];

export interface CaptureFlags {
  bin?: string;
  wire?: string;
  model?: string;
  refresh?: boolean;
  json?: boolean;
  /** Run without the network namespace (no bubblewrap here): the original could reach the network. */
  unsandboxed?: boolean;
  timeout?: string;
}

export interface CaptureSummary {
  id: string;
  agent: string;
  version: string;
  bin: string;
  wires: WireApi[];
  profile: string;
  prompt_file: string;
  prompt_bytes: number;
  tools: string[];
  omitted: { what: string; reason: string }[];
}

class CaptureError extends Error {}

function firstMainRequest(requests: RecordedRequest[], wire: WireApi): RecordedRequest | undefined {
  return requests.find((request) => {
    if (request.method !== 'POST' || wireOfPath(request.path) !== wire) return false;
    const tools = (request.body as Record<string, unknown> | undefined)?.['tools'];
    return Array.isArray(tools) && tools.length > 0;
  });
}

function tail(text: string, lines = 12): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

export async function captureHarness(agent: string, flags: CaptureFlags, io: HarnessIo): Promise<CaptureSummary> {
  const recipe = findRecipe(agent);
  if (!recipe) {
    const known = CAPTURE_RECIPES.map((entry) => `${entry.id} (${entry.bins.join('/')})`).join(', ');
    throw new CaptureError(`no capture recipe for "${agent}"; rig knows how to capture: ${known}`);
  }
  const bin = flags.bin ? findOnPath(flags.bin) : recipe.bins.map((name) => findOnPath(name, io.env['PATH'] ?? '')).find(Boolean);
  if (!bin) {
    throw new CaptureError(
      flags.bin
        ? `--bin ${flags.bin}: not an executable file`
        : `${recipe.bins.join(' or ')} is not on PATH: install ${recipe.id}'s original, or pass --bin PATH`,
    );
  }
  if (flags.wire !== undefined && !WIRES.includes(flags.wire as WireApi)) throw new CaptureError(`--wire must be one of ${WIRES.join(', ')}; got "${flags.wire}"`);
  const wires = flags.wire ? [flags.wire as WireApi] : recipe.wires;
  const unsupported = wires.filter((wire) => !recipe.wires.includes(wire));
  if (unsupported.length > 0) throw new CaptureError(`${recipe.id}'s original does not speak ${unsupported.join(', ')}; it speaks ${recipe.wires.join(', ')}`);
  if (!flags.unsandboxed && !findOnPath('bwrap', io.env['PATH'] ?? '/usr/bin:/bin')) {
    throw new CaptureError('capture runs the original without network access under bubblewrap, and `bwrap` is not on PATH: install bubblewrap, or pass --unsandboxed to run it with the network it has');
  }
  const builtinFile = join(builtinProfileDir(), `${recipe.id}.json`);
  const builtin = JSON.parse(readFileSync(builtinFile, 'utf8')) as Record<string, unknown>;

  const dir = harnessDir(io);
  const profileFile = join(dir, `${recipe.id}.json`);
  const promptFile = join(dir, `${recipe.id}.prompt.md`);
  const version = await probeVersion(bin, flags.unsandboxed === true);
  if (existsSync(profileFile) && !flags.refresh) {
    let what = 'a profile of your own';
    try {
      const existing = JSON.parse(readFileSync(profileFile, 'utf8')) as { capture?: { version?: string; captured?: string } };
      if (existing.capture) {
        const was = existing.capture.version ?? '?';
        what = `a capture (version ${was}, ${existing.capture.captured?.slice(0, 10) ?? '?'}); the installed original is ${was === version ? 'the same version' : `version ${version}`}`;
      }
    } catch {
      // unreadable: still the user's file
    }
    throw new CaptureError(`${profileFile} already holds ${what}; pass --refresh to capture again and replace it`);
  }

  const model = flags.model ?? recipe.defaultModel;
  const timeoutMs = flags.timeout ? Number(flags.timeout) * 1000 : undefined;
  const captured: StoredCapture[] = [];
  for (const wire of wires) {
    const outcome = await runOriginal({
      recipe,
      bin,
      wire,
      model,
      prompt: CAPTURE_PROMPT,
      ...(flags.unsandboxed ? { unsandboxed: true } : {}),
      ...(timeoutMs && Number.isFinite(timeoutMs) ? { timeoutMs } : {}),
    });
    const first = firstMainRequest(outcome.requests, wire);
    if (!first) {
      const seen = outcome.requests.map((request) => `${request.method} ${request.path}`).join(', ') || 'none';
      throw new CaptureError(
        `${bin} (${wire}) sent no request with tools (exit code ${String(outcome.code)}; requests seen: ${seen}).` +
          (outcome.stderr.trim() ? `\nIts last output:\n${tail(outcome.stderr)}` : ''),
      );
    }
    captured.push({
      wire,
      path: first.path,
      headers: first.headers,
      body: first.body as Record<string, unknown>,
      workspace: outcome.workspace,
      home: outcome.home,
      prompt: CAPTURE_PROMPT,
      captured: new Date().toISOString(),
    });
  }

  // Each run had its own throwaway paths; the writer slots them per run, so use each run's own.
  const requests: CapturedRequest[] = captured.map((capture) => ({
    wire: capture.wire,
    path: capture.path,
    headers: capture.headers,
    body: JSON.parse(JSON.stringify(capture.body).split(capture.workspace).join(captured[0]!.workspace).split(capture.home).join(captured[0]!.home)) as Record<string, unknown>,
  }));
  const written = buildCapturedProfile(requests, {
    id: recipe.id,
    agent: recipe.bins[0]!,
    version,
    bin,
    now: new Date(),
    prompt: CAPTURE_PROMPT,
    workspace: captured[0]!.workspace,
    home: captured[0]!.home,
    model,
    builtin,
    builtinDir: builtinProfileDir(),
  });

  // Staged next to the target and loaded and bound as a session would first: a capture that does
  // not work never replaces what was there.
  mkdirSync(dir, { recursive: true });
  const staging = mkdtempSync(join(dir, `.${recipe.id}.staging-`));
  let profile: HarnessProfile;
  try {
    const stagedProfile = join(staging, `${recipe.id}.json`);
    writeFileSync(join(staging, `${recipe.id}.prompt.md`), written.prompt);
    writeFileSync(stagedProfile, `${JSON.stringify(written.profile, null, 2)}\n`);
    profile = readProfileFile(stagedProfile, 'user');
    bindHarness(profile, nativeCapabilities({ wire: profile.wires[0] ?? 'responses', modelAcceptsImages: true }));
    renameSync(join(staging, `${recipe.id}.prompt.md`), promptFile);
    renameSync(stagedProfile, profileFile);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  storeCaptures(dir, recipe.id, captured);
  return {
    id: recipe.id,
    agent: recipe.bins[0]!,
    version,
    bin,
    wires,
    profile: profileFile,
    prompt_file: promptFile,
    prompt_bytes: Buffer.byteLength(written.prompt),
    tools: profile.tools.filter((tool) => tool.exposure === 'advertised').map((tool) => tool.name),
    omitted: written.omitted,
  };
}

export async function runHarnessCapture(agent: string, flags: CaptureFlags, io: HarnessIo = defaultHarnessIo()): Promise<number> {
  let summary: CaptureSummary;
  try {
    if (flags.unsandboxed) io.stderr('rig harness capture: --unsandboxed: the original runs with this machine\'s network\n');
    summary = await captureHarness(agent, flags, io);
  } catch (error) {
    io.stderr(`rig harness capture: ${(error as Error).message}\n`);
    return 1;
  }
  if (flags.json) {
    io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
    return 0;
  }
  io.stdout(`captured ${summary.agent} ${summary.version} on ${summary.wires.join(', ')}\n`);
  io.stdout(`  profile  ${summary.profile}\n  prompt   ${summary.prompt_file} (${summary.prompt_bytes} bytes)\n`);
  io.stdout(`  tools    ${summary.tools.join(', ')}\n`);
  for (const item of summary.omitted) io.stdout(`  omitted  ${item.what}: ${item.reason}\n`);
  io.stdout(`rig now speaks this capture for --harness ${summary.id}; \`rig harness diff ${summary.id}\` shows how it differs from the built-in\n`);
  return 0;
}
