import { describe, expect, it } from 'vitest';
import { checkWireSupport, chooseHarness, type HarnessSelectionInput } from '../../src/harness/routing.js';

function pick(input: Partial<HarnessSelectionInput>): string {
  return chooseHarness({ model: 'some-model', wire: 'chat', ...input }).id;
}

describe('chooseHarness', () => {
  it('an explicit harness always wins', () => {
    expect(pick({ configured: 'pi', model: 'claude-sonnet-4-6', wire: 'messages' })).toBe('pi');
  });

  it.each([
    [{ wire: 'messages' as const, model: 'whatever' }, 'claude-code'],
    [{ model: 'claude-sonnet-4-6' }, 'claude-code'],
    [{ model: 'anthropic/claude-opus-4.6' }, 'claude-code'],
    [{ provider: 'anthropic' }, 'claude-code'],
    [{ baseUrl: 'https://api.anthropic.com/v1' }, 'claude-code'],
    [{ model: 'kimi-for-coding', baseUrl: 'https://api.kimi.com/coding/v1' }, 'kimi-code'],
    [{ provider: 'moonshotai' }, 'kimi-code'],
    [{ baseUrl: 'https://api.moonshot.cn/v1' }, 'kimi-code'],
    [{ model: 'qwen3-coder-plus' }, 'qwen-code'],
    [{ model: 'qwq-32b' }, 'qwen-code'],
    [{ model: 'openrouter/qwq-32b' }, 'qwen-code'],
    [{ providerName: 'DashScope' }, 'qwen-code'],
    [{ baseUrl: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1' }, 'qwen-code'],
    [{ model: 'deepseek-chat' }, 'claude-code-bare'],
    [{ baseUrl: 'https://api.deepseek.com' }, 'claude-code-bare'],
    [{ model: 'glm-4.6' }, 'zcode'],
    [{ baseUrl: 'https://api.z.ai/api/anthropic', wire: 'messages' as const }, 'zcode'],
    [{ provider: 'zhipu' }, 'zcode'],
    [{ model: 'gpt-5.5', provider: 'openai', wire: 'responses' as const }, 'native'],
    [{ model: 'llama3', baseUrl: 'http://127.0.0.1:11434/v1' }, 'native'],
  ])('%o -> %s', (input, expected) => {
    expect(pick(input)).toBe(expected);
  });

  it('the first matching rule wins: a DeepSeek model behind an Anthropic-named provider is claude-code', () => {
    expect(pick({ model: 'deepseek-chat', provider: 'anthropic-proxy' })).toBe('claude-code');
  });

  it('matching is case-insensitive', () => {
    expect(pick({ model: 'Qwen3-Max' })).toBe('qwen-code');
  });

  it('says why', () => {
    expect(chooseHarness({ model: 'x', wire: 'chat' })).toEqual({ id: 'native', reason: 'no default rule matched' });
  });
});

describe('checkWireSupport', () => {
  it('accepts a listed wire', () => {
    expect(checkWireSupport({ id: 'pi', wires: ['chat', 'responses'] }, 'chat')).toBeNull();
  });

  it('names the wires that work', () => {
    expect(checkWireSupport({ id: 'pi', wires: ['chat', 'responses'] }, 'messages')).toBe(
      'harness "pi" does not support wire_api = "messages"; it supports "chat", "responses". ' +
        'Set wire_api to one of those for this provider, or choose another harness with -c harness=...',
    );
  });
});
