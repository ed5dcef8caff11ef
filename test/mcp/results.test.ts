// MCP results as the model sees them: text, images, structured content, resource links, cuts.
import { describe, expect, it } from 'vitest';
import { mapMcpResult } from '../../src/mcp/index.js';

describe('mapMcpResult', () => {
  it('text only is a string; isError is a failed call; the item keeps the raw content', () => {
    const mapped = mapMcpResult({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], isError: true });
    expect(mapped).toEqual({ output: 'a\nb', success: false, item: { content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], structured_content: null }, truncated: false });
  });

  it('images become input_image data URLs when the model takes images, a note otherwise', () => {
    const result = { content: [{ type: 'text', text: 'see' }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }] };
    expect(mapMcpResult(result, { supportsImages: true }).output).toEqual([
      { type: 'input_text', text: 'see' },
      { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
    ]);
    expect(mapMcpResult(result).output).toBe('see\n<image content omitted because you do not support image input>');
    expect(mapMcpResult(result, { supportsImages: true, maxImageBytes: 3 }).output).toBe('see\n<image omitted: image/png, 4 base64 bytes, over the size limit>');
  });

  it("structured content goes as its compact JSON: in place of the blocks by Codex's rule, else only when no block is text", () => {
    const both = { content: [{ type: 'text', text: 'forty-two' }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }], structuredContent: { n: 42 } };
    expect(mapMcpResult(both, { supportsImages: true, structuredFirst: true }).output).toBe('{"n":42}');
    expect(mapMcpResult(both, { supportsImages: true }).output).toEqual([
      { type: 'input_text', text: 'forty-two' },
      { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
    ]);
    expect(mapMcpResult({ content: [], structuredContent: { n: 42 } }).output).toBe('{"n":42}');
    expect(mapMcpResult({ content: [{ type: 'text', text: 'forty-two' }], structuredContent: null }, { structuredFirst: true }).output).toBe('forty-two');
    expect(mapMcpResult({ content: [], structuredContent: { s: 'x'.repeat(20) } }, { maxOutputBytes: 10, structuredFirst: true }).output).toBe('{"s":"xxxx\n[... MCP output truncated: 18 of 28 bytes omitted ...]');
    expect(mapMcpResult({ content: [], structuredContent: { n: 42 } }).item.structured_content).toEqual({ n: 42 });
  });

  it('resource links, embedded resources and audio are described', () => {
    const out = mapMcpResult({
      content: [
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
        { type: 'resource', resource: { uri: 'memo://x', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'memo://bin', blob: 'AAAA', mimeType: 'application/zip' } },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAAAA' },
      ],
    }).output;
    expect(out).toBe(
      [
        'Resource link: a.txt at file:///a.txt (text/plain)',
        'inline text',
        '<embedded resource memo://bin: application/zip, 4 base64 bytes; read it with read_mcp_resource if needed>',
        '<audio content omitted: audio/wav, 6 base64 bytes>',
      ].join('\n'),
    );
  });

  it('cuts over-long text on a character boundary and says how much was left out', () => {
    const mapped = mapMcpResult({ content: [{ type: 'text', text: 'é'.repeat(10) }, { type: 'text', text: 'tail' }] }, { maxOutputBytes: 5 });
    expect(mapped.truncated).toBe(true);
    expect(mapped.output).toBe('éé\n[... MCP output truncated: 20 of 24 bytes omitted ...]');
  });
});
