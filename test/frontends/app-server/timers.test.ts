// Scheduled prompts through the real binary (issue 15 item 7): in `rig app-server` a Claude Code
// model's ScheduleWakeup starts a new turn with its prompt about a second later, and a Kimi Code
// model's recurring CronCreate job fires twice (each fire a turn of its own) until CronDelete
// stops it; `rig exec`, which ends with its turn, leaves the timer tools out of the request.
import { describe, expect, it } from 'vitest';
import type { MockProvider, MockRequest } from '../../support/mock-provider/index.js';
import { runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { initialize, resultOf, spawnAppServer, text, useAppServerTests, type Peer } from './support.js';

type Json = Record<string, unknown>;

let mock: MockProvider;
const { dirs, peers } = useAppServerTests((m) => (mock = m));

const method = (name: string) => (message: Json) => message['method'] === name;
const params = (message: Json) => message['params'] as Json;

async function session(harness: string, wire: 'responses' | 'chat', extraArgs: string[] = []): Promise<{ peer: Peer; threadId: string }> {
  const repo = tempGitRepo({ 'note.txt': 'one\n' });
  const home = tempRigHome({ url: mock.url, wire });
  dirs.push(repo, home);
  const peer = spawnAppServer({ cwd: repo, home, args: ['-c', `harness="${harness}"`, ...extraArgs] });
  peers.push(peer);
  await initialize(peer);
  const started = resultOf<{ thread: { id: string } }>(await peer.request('thread/start', {}));
  return { peer, threadId: started.thread.id };
}

/** The tool names a request offered (Responses: name; Chat: function.name). */
function toolNames(request: MockRequest): string[] {
  const tools = ((request.body as Json)['tools'] ?? []) as Json[];
  return tools.map((tool) => (tool['name'] ?? (tool['function'] as Json | undefined)?.['name']) as string);
}

/** Waits for the `n`th turn/completed after `from`, returning the index just past it. */
async function turnsCompleted(peer: Peer, n: number, from: number): Promise<number> {
  let at = from;
  for (let i = 0; i < n; i++) {
    const done = await peer.next(method('turn/completed'), at);
    at = peer.received.indexOf(done) + 1;
  }
  return at;
}

/** The text of each user message of the turns started after `from`, one entry per turn. */
function userMessagesByTurn(peer: Peer, from: number): string[] {
  const byTurn = new Map<string, string[]>();
  for (const message of peer.received.slice(from)) {
    if (!method('item/completed')(message)) continue;
    const item = params(message)['item'] as Json;
    if (item['type'] !== 'userMessage') continue;
    const texts = (item['content'] as Json[]).map((part) => part['text'] as string);
    const turnId = params(message)['turnId'] as string;
    byTurn.set(turnId, [...(byTurn.get(turnId) ?? []), ...texts]);
  }
  return [...byTurn.values()].map((texts) => texts.join('\n'));
}

describe('scheduled prompts', () => {
  it('app-server, claude-code: a ScheduleWakeup of 1 s starts a new turn with its prompt', async () => {
    const { peer, threadId } = await session('claude-code', 'responses', ['-c', 'timers.min_wakeup_seconds=1']);
    mock.enqueue(
      { toolCalls: [{ name: 'ScheduleWakeup', arguments: { delaySeconds: 1, reason: 'the build takes a moment', prompt: 'check the build again' } }] },
      { text: 'I will look again in a second.' },
      { text: 'The build passed.' },
    );
    const from = peer.received.length;
    resultOf(await peer.request('turn/start', { threadId, input: text('watch the build') }));
    // The first turn, then the one the wake-up starts on its own: nobody sends turn/start again.
    await turnsCompleted(peer, 2, from);
    expect(peer.received.slice(from).filter(method('turn/started'))).toHaveLength(2);
    expect(userMessagesByTurn(peer, from)).toEqual(['watch the build', 'check the build again']);
    expect(toolNames(mock.requests[0]!)).toContain('ScheduleWakeup');
    const answer = JSON.stringify(mock.requests[1]!.body);
    expect(answer).toMatch(/Wake-up [0-9a-f]{8} scheduled in 1 s/);
    expect(JSON.stringify(mock.requests[2]!.body)).toContain('check the build again');
    expect(mock.remaining()).toBe(0);
  });

  it('app-server, kimi-code: a recurring CronCreate job fires twice, each fire a turn, until CronDelete', async () => {
    const { peer, threadId } = await session('kimi-code', 'chat');
    const jobId = (request: MockRequest): string => {
      const id = /id: ([0-9a-f]{8})/.exec(JSON.stringify(request.body))?.[1];
      if (!id) throw new Error('no job id in the request');
      return id;
    };
    mock.enqueue(
      // A sixth, leading field is seconds: every second.
      { toolCalls: [{ name: 'CronCreate', arguments: { cron: '* * * * * *', prompt: 'tick', recurring: true } }] },
      { text: 'Scheduled.' },
      { text: 'First tick.' },
      (request) => ({ toolCalls: [{ name: 'CronDelete', arguments: { id: jobId(request) } }] }),
      { text: 'Stopped the ticks.' },
      { toolCalls: [{ name: 'CronList', arguments: {} }] },
      { text: 'Nothing is scheduled.' },
    );
    const from = peer.received.length;
    resultOf(await peer.request('turn/start', { threadId, input: text('tick every second, twice') }));
    const after = await turnsCompleted(peer, 3, from);
    expect(userMessagesByTurn(peer, from)).toEqual(['tick every second, twice', 'tick', 'tick']);
    expect(toolNames(mock.requests[0]!)).toEqual(expect.arrayContaining(['CronCreate', 'CronDelete', 'CronList']));
    expect(JSON.stringify(mock.requests[1]!.body)).toMatch(/Scheduled cron job\.\\nid: [0-9a-f]{8}\\ncron: \* \* \* \* \* \*/);
    expect(JSON.stringify(mock.requests[4]!.body)).toContain(`Deleted cron job ${jobId(mock.requests[3]!)}.`);

    // The job is gone: the next turn is the user's, and the list is empty.
    resultOf(await peer.request('turn/start', { threadId, input: text('what is scheduled?') }));
    await turnsCompleted(peer, 1, after);
    expect(JSON.stringify(mock.requests[6]!.body)).toContain('cron_jobs: 0\\nNo cron jobs scheduled.');
    expect(userMessagesByTurn(peer, after)).toEqual(['what is scheduled?']);
    expect(mock.remaining()).toBe(0);
  });

  it('rig exec leaves the timer tools out of the request (its run ends with the turn)', async () => {
    const repo = tempGitRepo({ 'note.txt': 'one\n' });
    const home = tempRigHome({ url: mock.url, wire: 'chat' });
    dirs.push(repo, home);
    mock.enqueue({ text: 'done' });
    const run = await runRig(['exec', '--json', '--harness', 'kimi-code', 'hello'], { cwd: repo, home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const names = toolNames(mock.requests[0]!);
    expect(names).toContain('Bash');
    for (const name of ['CronCreate', 'CronDelete', 'CronList']) expect(names).not.toContain(name);
  });
});
