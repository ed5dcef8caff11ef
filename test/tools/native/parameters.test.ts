import { describe, expect, it } from 'vitest';
import { nativeParameterSchemas, renderNativeParameters } from '../../../src/tools/native/parameters.js';
import { NATIVE_PARAMETERS } from '../../../src/tools/native/parameters.generated.js';
import { nativeParameters } from '../../../src/tools/native/shipped-parameters.js';
import { nativeCapabilities } from '../../../src/tools/native/registry.js';

const STALE = 'src/tools/native/parameters.generated.ts is stale: run `node scripts/gen-native-parameters.mjs`';

describe('native tool parameters shipped as JSON', () => {
  it('equal z.toJSONSchema of the zod source, byte for byte (key order included)', () => {
    const rendered = renderNativeParameters();
    expect(Object.keys(NATIVE_PARAMETERS).sort(), STALE).toEqual(Object.keys(nativeParameterSchemas).sort());
    for (const name of Object.keys(nativeParameterSchemas) as (keyof typeof nativeParameterSchemas)[]) {
      expect(JSON.stringify(NATIVE_PARAMETERS[name]), `${name}: ${STALE}`).toBe(JSON.stringify(rendered[name]));
    }
  });

  it('hands every tool its own copy', () => {
    const first = nativeParameters('exec_command');
    (first['properties'] as Record<string, unknown>)['cmd'] = 'changed';
    expect(nativeParameters('exec_command')).toEqual(NATIVE_PARAMETERS.exec_command);
    expect(JSON.stringify(NATIVE_PARAMETERS.exec_command)).not.toContain('changed');
  });

  it('is what the native tools advertise', () => {
    const tools = nativeCapabilities({ wire: 'chat', modelAcceptsImages: true });
    const bound = (id: string, name: string) => tools.get(id)!({ name } as never, {} as never);
    const expected: [string, keyof typeof nativeParameterSchemas][] = [
      ['native.exec_command', 'exec_command'],
      ['native.write_stdin', 'write_stdin'],
      ['native.shell', 'shell'],
      ['native.shell_command', 'shell_command'],
      ['native.update_plan', 'update_plan'],
      ['native.view_image', 'view_image'],
    ];
    for (const [id, name] of expected) {
      const spec = bound(id, name);
      expect(spec.kind).toBe('function');
      expect((spec as { parameters?: unknown }).parameters).toEqual(renderNativeParameters()[name]);
    }
  });
});
