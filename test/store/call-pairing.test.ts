import { describe, expect, it } from 'vitest';
import { ABORTED_CALL_OUTPUT, repairCallPairing } from '../../src/store/call-pairing.js';
import type { ConversationItem } from '../../src/protocol/index.js';

const user = (text: string): ConversationItem => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const call = (id: string): ConversationItem => ({ type: 'function_call', call_id: id, name: 'x', arguments: '{}' });
const output = (id: string, text = 'ok'): ConversationItem => ({ type: 'function_call_output', call_id: id, output: text });
const shape = (items: ConversationItem[]) => items.map((i) => (i.type === 'message' ? 'msg' : `${i.type === 'function_call' ? 'call' : 'out'}:${'call_id' in i ? i.call_id : ''}`));

describe('repairCallPairing', () => {
  it('leaves a well-formed history alone', () => {
    const history = [user('go'), call('a'), output('a'), user('next')];
    expect(repairCallPairing(history)).toEqual({ history, repairs: [] });
  });

  it('interleaved writers: duplicate calls and outputs dropped, orphans dropped, missing outputs added', () => {
    const { history, repairs } = repairCallPairing([
      user('go'), call('a'), call('a'), output('orphan'), output('a'), output('a', 'again'), call('b'), user('next'),
    ]);
    expect(shape(history)).toEqual(['msg', 'call:a', 'out:a', 'call:b', 'out:b', 'msg']);
    expect(history[4]).toMatchObject({ output: ABORTED_CALL_OUTPUT, is_error: true });
    expect(repairs).toEqual([
      'dropped a second call with id a',
      'dropped an output for call orphan, whose call is missing',
      'dropped a second output for call a',
      'answered call b, which has no output, as aborted',
    ]);
  });
});
