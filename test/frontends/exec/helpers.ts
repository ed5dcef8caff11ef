// Helpers shared by the `rig exec` CLI tests: a live child whose stdout can be awaited line by
// line (for signal tests), a /proc scan for leftover processes, and a port nothing listens on.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockWire } from '../../support/mock-provider/index.js';
import { RIG_BIN } from '../../support/workspace.js';

interface ProcessInfo {
  pid: number;
  pgid: number;
  cmdline: string;
}

/** Live (non-zombie) processes, read from /proc. */
function liveProcesses(): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      // Fields after the parenthesised command name: state, ppid, pgrp, ...
      const stat = /\) (\S) \S+ (\d+)/.exec(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (!stat || stat[1] === 'Z') continue;
      found.push({ pid: Number(entry), pgid: Number(stat[2]), cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8') });
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** Pids of live processes whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  return liveProcesses().filter((p) => p.cmdline.includes(marker)).map((p) => p.pid);
}

/** Process groups of the live processes whose command line contains `marker`. */
export function processGroupsWith(marker: string): number[] {
  return [...new Set(liveProcesses().filter((p) => p.cmdline.includes(marker)).map((p) => p.pgid))];
}

/** Pids of live processes in any of the given process groups. */
export function membersOf(groups: number[]): number[] {
  return liveProcesses().filter((p) => groups.includes(p.pgid)).map((p) => p.pid);
}

/** Polls `check` every 20 ms until it returns true or `timeoutMs` passes. */
export async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A loopback port that refuses connections (a server was bound there and closed). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface LiveRig {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout contains `text`. */
  waitForStdout(text: string, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built CLI and keeps it running so a test can signal it mid-turn. */
export function startRig(args: string[], options: { cwd: string; home: string }): LiveRig {
  const child = spawn(process.execPath, [RIG_BIN, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: options.home, RIG_HOME: options.home, MOCK_API_KEY: 'sk-mock-secret-0123456789' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const listener of [...listeners]) listener();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForStdout(text, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!stdout.includes(text)) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`rig did not print ${JSON.stringify(text)} within ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`));
        }, timeoutMs);
        listeners.add(check);
        void exited.then(() => {
          if (!stdout.includes(text)) {
            listeners.delete(check);
            clearTimeout(timer);
            reject(new Error(`rig exited before printing ${JSON.stringify(text)}; stdout:\n${stdout}\nstderr:\n${stderr}`));
          }
        });
        check();
      });
    },
  };
}

/** The first tool result a request body carries, read from the wire's own shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request bodies are free-form JSON
export function toolResult(wire: MockWire, body: any): { callId: string; text: string } {
  if (wire === 'responses') {
    const output = body.input.find((item: any) => item.type === 'function_call_output');
    return { callId: output.call_id, text: output.output };
  }
  if (wire === 'chat') {
    const message = body.messages.find((m: any) => m.role === 'tool');
    return { callId: message.tool_call_id, text: typeof message.content === 'string' ? message.content : message.content.map((p: any) => p.text).join('') };
  }
  const block = body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === 'tool_result');
  return { callId: block.tool_use_id, text: typeof block.content === 'string' ? block.content : block.content.map((p: any) => p.text).join('') };
}
