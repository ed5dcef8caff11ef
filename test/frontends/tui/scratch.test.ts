import { it } from 'vitest';
import { startHarness } from './support/harness.js';
const dump = (h: any, label: string) => { const b = h.term.term.buffer.active; const out = [label]; for (let r = Math.max(0, b.length - 12); r < b.length; r++) { const l = b.getLine(r); out.push(`${r} ${l.isWrapped ? 'W' : ' '} |${l.translateToString(true)}|`); } out.push(`cursor ${b.cursorY + b.baseY} ${b.cursorX}`); console.log(out.join('\n')); };
it('scratch', async () => {
    const h = await startHarness({ columns: 60, rows: 12 });
    await h.emit({ type: 'session.info', info: { model: 'gpt-5.5', harness: 'codex', sandbox: 'workspace-write', approval_policy: 'on-request' } });
    await h.type('make the tests pass\r');
    await h.emit({ type: 'turn.started' }, { type: 'item.completed', item: { id: 'm', type: 'agent_message', text: `x\ny` } }, { type: 'turn.completed', usage: { input_tokens: 1200, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 300, reasoning_output_tokens: 0 } });
    await h.type('draft');
    dump(h, 'wide');
    h.term.term.resize(24, 12); dump(h, 'after xterm reflow');
    h.term.resize(24, 12); await h.settle(); dump(h, 'narrow');
    for (const w of h.term.writes.slice(-1)) console.log(JSON.stringify(w));
    h.term.term.resize(60, 12); dump(h, 'after xterm reflow');
    h.term.resize(60, 12); await h.settle(); dump(h, 'wide again');
    for (const w of h.term.writes.slice(-1)) console.log(JSON.stringify(w));
});
