// The table-level TOML editor behind `rig mcp add/remove`: everything outside the edited table
// survives byte for byte, and no edit is returned that does not parse back to the intended change.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { editConfigFile, removeTomlTable, setTomlTable, TomlEditError } from '../../src/config/toml-edit.js';
import { ConfigError } from '../../src/config/errors.js';
import { tempDir } from '../config/tmp.js';

// A config in the style people write: header comments, inline tables, multi-line arrays and
// strings (one of which looks like a table header), dotted keys, a profile and trust entries.
const REAL_WORLD = `# ~/.rig/config.toml — my setup
model = "gpt-5.5"   # the default
model_provider = "openai"

developer_instructions = """
Be terse.
[mcp_servers.fake]
this line is inside a string, not a header
"""

[model_providers.openrouter]
name = "OpenRouter"
base_url = "https://openrouter.example/api/v1"
env_key = "OPENROUTER_API_KEY"
http_headers = { "X-Title" = "rig", Referer = "https://rig.example" }

# Documentation search
[mcp_servers.docs]
command = "npx"
args = [
  "-y",
  "@example/docs-mcp",   # pinned below
  "--root=[workspace]",
]
env = { DOCS_TOKEN = "abc" }
tool_timeout_sec = 60.0

[mcp_servers.docs.tools.search]
approval_mode = "approve"

# GitHub over HTTP
[mcp_servers.github]
url = "https://mcp.github.example/mcp"
bearer_token_env_var = "GITHUB_TOKEN"

[profiles.fast]
model = "o4-mini"

[projects."/srv/app"]
trust_level = "trusted"
`;

describe('setTomlTable', () => {
  it('adds a server after the other servers and leaves every other line as it was', () => {
    const out = setTomlTable(REAL_WORLD, ['mcp_servers', 'files'], { command: 'mcp-fs', args: ['/srv'], env: { A: '1' } });
    const parsed = parse(out) as Record<string, any>;
    expect(parsed.mcp_servers.files).toEqual({ command: 'mcp-fs', args: ['/srv'], env: { A: '1' } });
    expect(out).toContain('[mcp_servers.files]\ncommand = "mcp-fs"\nargs = ["/srv"]\nenv = { A = "1" }\n\n[profiles.fast]');
    // Removing the new block gives back the original text exactly.
    expect(out.replace('[mcp_servers.files]\ncommand = "mcp-fs"\nargs = ["/srv"]\nenv = { A = "1" }\n\n', '')).toBe(REAL_WORLD);
  });

  it('replaces a server with its sub-tables in place and keeps the comment above it', () => {
    const out = setTomlTable(REAL_WORLD, ['mcp_servers', 'docs'], { url: 'http://127.0.0.1:9/mcp' });
    const parsed = parse(out) as Record<string, any>;
    expect(parsed.mcp_servers.docs).toEqual({ url: 'http://127.0.0.1:9/mcp' });
    expect(out).toContain('# Documentation search\n[mcp_servers.docs]\nurl = "http://127.0.0.1:9/mcp"\n\n# GitHub over HTTP\n');
    expect(out).not.toContain('approval_mode');
    expect(out.startsWith(REAL_WORLD.slice(0, REAL_WORLD.indexOf('[mcp_servers.docs]')))).toBe(true);
    expect(out.endsWith(REAL_WORLD.slice(REAL_WORLD.indexOf('# GitHub over HTTP')))).toBe(true);
  });

  it('writes tables of tables as their own sections and quotes keys that need it', () => {
    const out = setTomlTable('', ['mcp_servers', 'x'], { command: 'c', tools: { 'a.b': { approval_mode: 'prompt' } }, env: { 'MY VAR': 'v"q' } });
    expect(out).toBe('[mcp_servers.x]\ncommand = "c"\nenv = { "MY VAR" = "v\\"q" }\n\n[mcp_servers.x.tools."a.b"]\napproval_mode = "prompt"\n');
    expect((parse(out) as any).mcp_servers.x.tools['a.b'].approval_mode).toBe('prompt');
  });

  it('puts a server into an inline mcp_servers table, where a header could not go', () => {
    const text = 'mcp_servers = { a = { command = "a" } } # inline\nmodel = "m"\n';
    const out = setTomlTable(text, ['mcp_servers', 'b'], { command: 'b' });
    expect(parse(out)).toEqual({ mcp_servers: { a: { command: 'a' }, b: { command: 'b' } }, model: 'm' });
    expect(out.endsWith('model = "m"\n')).toBe(true);
  });

  it('keeps CRLF line endings and a file without a final newline', () => {
    const text = '# c\r\nmodel = "m"';
    const out = setTomlTable(text, ['mcp_servers', 'x'], { command: 'c' });
    expect(out).toBe('# c\r\nmodel = "m"\r\n\r\n[mcp_servers.x]\r\ncommand = "c"');
  });

  it('keeps floats floats and integers integers in a rewritten inline value', () => {
    const text = 'mcp_servers = { a = { command = "a", tool_timeout_sec = 1.0, startup_timeout_ms = 5 } }\n';
    const out = setTomlTable(text, ['mcp_servers', 'b'], { command: 'b' });
    expect(out).toContain('tool_timeout_sec = 1.0');
    expect(out).toContain('startup_timeout_ms = 5 }');
  });

  it('any server table round-trips through a real-world file (property)', () => {
    const key = fc.string({ minLength: 1, maxLength: 12 });
    const server = fc.record({
      command: fc.string(),
      args: fc.array(fc.string(), { maxLength: 4 }),
      env: fc.dictionary(key, fc.string(), { maxKeys: 3 }),
      enabled: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/), server, (name, table) => {
        const out = setTomlTable(REAL_WORLD, ['mcp_servers', name], table);
        const parsed = parse(out) as Record<string, any>;
        expect(parsed.mcp_servers[name]).toEqual(table);
        expect(parsed.developer_instructions).toBe((parse(REAL_WORLD) as any).developer_instructions);
      }),
      { numRuns: 150 },
    );
  });
});

describe('removeTomlTable', () => {
  it('removes a server with its sub-tables and the comment attached to it', () => {
    const { text, removed } = removeTomlTable(REAL_WORLD, ['mcp_servers', 'docs']);
    expect(removed).toBe(true);
    const expected = REAL_WORLD.replace(/# Documentation search\n\[mcp_servers\.docs\][\s\S]*?approval_mode = "approve"\n\n/, '');
    expect(text).toBe(expected);
    expect((parse(text) as any).mcp_servers).toEqual({ github: { url: 'https://mcp.github.example/mcp', bearer_token_env_var: 'GITHUB_TOKEN' } });
  });

  it('does not mistake a header-looking line inside a string or an array for a table', () => {
    const { text } = removeTomlTable(REAL_WORLD, ['mcp_servers', 'github']);
    expect(text).toContain('[mcp_servers.fake]\nthis line is inside a string');
    expect(text).toContain('"--root=[workspace]",');
  });

  it('removes dotted keys and entries of an inline table', () => {
    expect(removeTomlTable('[mcp_servers]\na.command = "a"\na.args = ["x"]\nb.command = "b"\n', ['mcp_servers', 'a']).text).toBe(
      '[mcp_servers]\nb.command = "b"\n',
    );
    expect(removeTomlTable('mcp_servers = { a = { command = "a" }, b = { command = "b" } }\n', ['mcp_servers', 'a']).text).toBe(
      'mcp_servers = { b = { command = "b" } }\n',
    );
  });

  it('removing the only server also drops the mcp_servers table it implied', () => {
    expect(removeTomlTable('model = "m"\n\n[mcp_servers.a]\ncommand = "a"\n', ['mcp_servers', 'a']).text).toBe('model = "m"\n');
    // An explicit [mcp_servers] header stays (it is the user's).
    expect(removeTomlTable('[mcp_servers]\n\n[mcp_servers.a]\ncommand = "a"\n', ['mcp_servers', 'a']).text).toBe('[mcp_servers]\n');
  });

  it('leaves the text alone when the table is absent', () => {
    expect(removeTomlTable(REAL_WORLD, ['mcp_servers', 'nope'])).toEqual({ text: REAL_WORLD, removed: false });
  });

  it('refuses a file that is not valid TOML', () => {
    expect(() => removeTomlTable('model = \n', ['mcp_servers', 'a'])).toThrow(TomlEditError);
    expect(() => setTomlTable('[a]\nx = 1\n[a]\n', ['mcp_servers', 'a'], { command: 'c' })).toThrow(/not valid TOML \(line 3/);
  });
});

describe('editConfigFile', () => {
  it('writes atomically, keeps the mode of an existing file, creates a new one owner-only', () => {
    const dir = tempDir();
    const existing = path.join(dir, 'config.toml');
    fs.writeFileSync(existing, REAL_WORLD, { mode: 0o640 });
    fs.chmodSync(existing, 0o640);
    expect(editConfigFile(existing, (text) => removeTomlTable(text, ['mcp_servers', 'github']).text)).toEqual({ changed: true });
    expect(fs.statSync(existing).mode & 0o777).toBe(0o640);
    expect(fs.readdirSync(dir)).toEqual(['config.toml']);

    const fresh = path.join(dir, 'home', 'config.toml');
    editConfigFile(fresh, (text) => setTomlTable(text, ['mcp_servers', 'x'], { command: 'c' }));
    expect(fs.readFileSync(fresh, 'utf8')).toBe('[mcp_servers.x]\ncommand = "c"\n');
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o600);
  });

  it('leaves a broken file untouched and says why', () => {
    const file = path.join(tempDir(), 'config.toml');
    fs.writeFileSync(file, 'model = "unterminated\n');
    expect(() => editConfigFile(file, (text) => setTomlTable(text, ['mcp_servers', 'x'], { command: 'c' }))).toThrow(ConfigError);
    expect(() => editConfigFile(file, (text) => setTomlTable(text, ['mcp_servers', 'x'], { command: 'c' }))).toThrow(
      new RegExp(`^cannot edit ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the file is not valid TOML .*the file was not changed$`),
    );
    expect(fs.readFileSync(file, 'utf8')).toBe('model = "unterminated\n');
  });
});
