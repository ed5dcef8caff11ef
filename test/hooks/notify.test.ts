import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runNotify } from '../../src/hooks/index.js';
import { removeDir, tempDir } from '../support/workspace.js';
import { script } from './helpers.js';

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('notify runs the program with the turn as a JSON last argument', async () => {
  const d = tempDir('notify');
  try {
    const program = JSON.parse(script(d, 'notify.sh', `printf '%s\\n' "$1" > "${d}/first"; printf '%s' "$2" > "${d}/payload.tmp"; mv "${d}/payload.tmp" "${d}/payload"`)) as string;
    const result = await runNotify([program, '--flag'], {
      threadId: 't-1',
      turnId: 'turn-3',
      cwd: d,
      client: 'rig-exec',
      inputMessages: ['rename foo to bar'],
      lastAssistantMessage: 'Renamed.',
    });
    expect(result.started).toBe(true);
    await until(() => existsSync(join(d, 'payload')));
    expect(readFileSync(join(d, 'first'), 'utf8')).toBe('--flag\n');
    expect(JSON.parse(readFileSync(join(d, 'payload'), 'utf8'))).toEqual({
      type: 'agent-turn-complete',
      'thread-id': 't-1',
      'turn-id': 'turn-3',
      cwd: d,
      client: 'rig-exec',
      'input-messages': ['rename foo to bar'],
      'last-assistant-message': 'Renamed.',
    });
  } finally {
    removeDir(d);
  }
});

test('a notify program that cannot start is reported, not thrown', async () => {
  const result = await runNotify(['/nonexistent/notifier'], { threadId: 't', turnId: 'u', cwd: '/', inputMessages: [], lastAssistantMessage: null });
  expect(result).toMatchObject({ started: false, error: expect.stringMatching(/notify program \/nonexistent\/notifier could not start/) });
  expect(await runNotify([], { threadId: 't', turnId: 'u', cwd: '/', inputMessages: [], lastAssistantMessage: null })).toEqual({ started: false });
});
