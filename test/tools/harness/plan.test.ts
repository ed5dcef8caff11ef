import { describe, expect, it } from 'vitest';
import { bound } from './bind.js';
import { call, fakeContext } from './fake-context.js';

describe('todo tools map onto the one plan', () => {
  it('opencode todowrite updates the plan and echoes the list', async () => {
    const ctx = fakeContext();
    const todos = [
      { content: 'a', status: 'completed', priority: 'high' },
      { content: 'b', status: 'in_progress', priority: 'low' },
    ];
    expect(JSON.parse((await call(bound('opencode').byName.get('todowrite'), { todos }, ctx)).text)).toEqual(todos);
    expect(ctx.plans).toEqual([[{ text: 'a', completed: true }, { text: 'b', completed: false }]]);
  });

  it('zcode TodoWrite reports old and new lists with a summary; TodoRead shows the list', async () => {
    const ctx = fakeContext();
    const zcode = bound('zcode');
    await call(zcode.byName.get('TodoWrite'), { todos: [{ content: 'x', status: 'pending', priority: 'high' }] }, ctx);
    const reply = JSON.parse((await call(zcode.byName.get('TodoWrite'), { todos: [{ content: 'x', status: 'completed', priority: 'high' }] }, ctx)).text);
    expect(reply).toEqual({
      oldTodos: [{ content: 'x', status: 'pending', priority: 'high' }],
      todos: [{ content: 'x', status: 'completed', priority: 'high' }],
      summary: { total: 1, pending: 0, inProgress: 0, completed: 1 },
    });
    expect(JSON.parse((await call(zcode.byName.get('TodoRead'), {}, ctx)).text)).toEqual({ todos: [{ content: 'x', status: 'completed', priority: 'high' }] });
  });

  it('kimi TodoList reads when todos is omitted and replaces otherwise', async () => {
    const ctx = fakeContext();
    const list = bound('kimi-code').byName.get('TodoList');
    expect((await call(list, {}, ctx)).text).toBe('Todo list is empty.');
    await call(list, { todos: [{ title: 'one', status: 'done' }, { title: 'two', status: 'pending' }] }, ctx);
    expect((await call(list, {}, ctx)).text).toBe('Current todo list:\n  [done] one\n  [pending] two');
    expect(ctx.plans.at(-1)).toEqual([{ text: 'one', completed: true }, { text: 'two', completed: false }]);
    expect((await call(list, { todos: [{ status: 'done' }] }, ctx)).success).toBe(false);
  });

  it('todo state is per thread', async () => {
    const first = fakeContext();
    const second = fakeContext();
    const list = bound('kimi-code').byName.get('TodoList');
    await call(list, { todos: [{ title: 'mine', status: 'pending' }] }, first);
    expect((await call(list, {}, second)).text).toBe('Todo list is empty.');
  });

  it('DeepSeek checklist keeps ids and completion', async () => {
    const ctx = fakeContext();
    const ds = bound('deepseek-tui');
    await call(ds.byName.get('checklist_write'), { todos: [{ content: 'a', status: 'pending' }, { content: 'b', status: 'completed' }] }, ctx);
    expect((await call(ds.byName.get('checklist_update'), { id: 1, status: 'in_progress' }, ctx)).text).toBe(
      'Updated todo #1 to in_progress\n{"items":[{"id":1,"content":"a","status":"in_progress"},{"id":2,"content":"b","status":"completed"}],"completion_pct":50,"in_progress_id":1}',
    );
    expect((await call(ds.byName.get('checklist_add'), { content: 'c' }, ctx)).text).toMatch(/^Todo list updated \(3 items, 33% complete\)/);
  });

  it('plan mode tools answer with guidance and the plan', async () => {
    const ctx = fakeContext();
    const zcode = bound('zcode');
    expect((await call(zcode.byName.get('EnterPlanMode'), {}, ctx)).text).toMatch(/^Plan mode is on/);
    expect((await call(zcode.byName.get('ExitPlanMode'), { plan: '1. do it' }, ctx)).text).toBe('Plan submitted for approval.\n\n1. do it');
  });
});

describe('DeepSeek apply_patch', () => {
  it('applies a unified diff through applyChanges', async () => {
    const ctx = fakeContext();
    ctx.write('f.txt', 'one\ntwo\nthree\n');
    const patch = '--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n';
    expect(await call(bound('deepseek-tui').byName.get('apply_patch'), { patch }, ctx)).toEqual({ success: true, text: 'Applied changes to 1 file(s): f.txt' });
    expect(ctx.read('f.txt')).toBe('one\nTWO\nthree\n');
    const stale = await call(bound('deepseek-tui').byName.get('apply_patch'), { patch }, ctx);
    expect(stale.success).toBe(false);
    expect(stale.text).toContain('do not match the file');
  });

  it('writes whole files from changes[]', async () => {
    const ctx = fakeContext();
    expect((await call(bound('deepseek-tui').byName.get('apply_patch'), { changes: [{ path: 'n/x.txt', content: 'x' }] }, ctx)).success).toBe(true);
    expect(ctx.read('n/x.txt')).toBe('x');
  });
});
