// Done-when of issue 10: a client typed with Codex's own generated TypeScript drives a full session
// against `rig app-server` (the real binary, the loopback mock model): start, a turn with a command
// approval round-trip, steer, interrupt, resume, fork. The client is type-checked against the types
// the installed Codex generates right now, then run.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { REPO_ROOT, removeDir, tempDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { membersOf, processGroupsWith } from '../exec/helpers.js';
import { codexProtocol, conformanceProblems, removeCodexProtocol, spawnAppServer } from './support.js';

const CLIENT = join(REPO_ROOT, 'test', 'frontends', 'app-server', 'typed', 'client.ts');

/**
 * The client module, loaded by path: it is typed against Codex's generated files, which exist only
 * at test time, so the repository's own tsc must not follow an import of it.
 */
interface TypedClientModule {
  TypedAppServerClient: new (output: NodeJS.WritableStream, input: NodeJS.ReadableStream) => { methods: Map<string | number, string> };
  driveSession(
    client: object,
    hooks: { afterSteer(): void },
  ): Promise<{ threadId: string; approvedCommand: string; steeredTurnId: string; interruptedStatus: string; resumedTurnStatuses: string[]; forkedFrom: string | null; forkTurnCount: number }>;
}

let mock: MockProvider;
let repo: string;
let home: string;
let checkDir: string;

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'note.txt': 'one\n' });
  home = tempRigHome({ url: mock.url });
  checkDir = tempDir('typed-client');
});

afterAll(async () => {
  removeCodexProtocol();
  await mock.close();
  for (const dir of [repo, home, checkDir]) removeDir(dir);
});

/** tsc over `files` with `codex-app-server-protocol` mapped to Codex's generated TypeScript. */
function typeCheck(files: string[]): { status: number | null; output: string } {
  const ts = codexProtocol().tsDir;
  const config = join(checkDir, `tsconfig-${files.length}-${Date.now()}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2023'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
        paths: { 'codex-app-server-protocol': [join(ts, 'index.ts')], 'codex-app-server-protocol/v2': [join(ts, 'v2', 'index.ts')] },
      },
      files,
    }),
  );
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], { encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("a client typed with Codex's generated TypeScript", () => {
  it("type-checks against Codex's types, and the check catches a wrong shape", () => {
    const wrong = join(checkDir, 'wrong.ts');
    writeFileSync(
      wrong,
      [
        "import type { ClientRequest } from 'codex-app-server-protocol';",
        "export const bad: ClientRequest = { id: 1, method: 'turn/start', params: { threadId: 't', input: 'a string, not a list' } };",
      ].join('\n'),
    );
    const check = typeCheck([CLIENT, wrong]);
    const lines = check.output.split('\n').filter((line) => /error TS/.test(line));
    expect(lines.length).toBeGreaterThan(0);
    // Every error is in the deliberately wrong file; none in the client.
    expect(lines.filter((line) => !line.includes('wrong.ts'))).toEqual([]);
  }, 120_000);

  it('drives start, a command approval, steer, interrupt, resume and fork', async () => {
    const marker = `rig-typed-${process.pid}-${Date.now()}`;
    mock.enqueue(
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'touch typed.txt' } }] },
      { text: 'made it' },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo waiting; while [ ! -e go ]; do sleep 0.05; done', yield_time_ms: 30_000 } }] },
      { text: 'steered' },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: `echo sleeping; sleep 30 # ${marker}`, yield_time_ms: 30_000 } }] },
    );
    const server = spawnAppServer({ cwd: repo, home, args: ['-c', 'harness="native"'] });
    const { TypedAppServerClient, driveSession } = (await import(pathToFileURL(CLIENT).href)) as TypedClientModule;
    const client = new TypedAppServerClient(server.child.stdin!, server.child.stdout!);
    const report = await driveSession(client, { afterSteer: () => writeFileSync(join(repo, 'go'), '') });

    expect(report.approvedCommand).toContain('touch typed.txt');
    expect(existsSync(join(repo, 'typed.txt'))).toBe(true);
    expect(report.steeredTurnId).toBe('turn_1');
    expect(JSON.stringify(mock.requests[3]!.body)).toContain('and say steered');
    expect(report.interruptedStatus).toBe('interrupted');
    expect(membersOf(processGroupsWith(marker))).toEqual([]);
    expect(report.resumedTurnStatuses).toEqual(['completed', 'completed', 'interrupted']);
    expect(report.forkedFrom).toBe(report.threadId);
    expect(report.forkTurnCount).toBe(3);
    expect(mock.remaining()).toBe(0);
    expect(await server.close()).toBe(0);
    // Everything rig sent this client is what Codex's schema allows.
    for (const [id, method] of client.methods) server.noteRequest(id, method);
    expect(server.received.length).toBeGreaterThan(20);
    expect(conformanceProblems(server)).toEqual([]);
  });
});
