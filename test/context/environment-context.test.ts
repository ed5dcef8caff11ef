import { describe, expect, it } from 'vitest';
import {
  buildEnvironmentContext,
  dateInTimezone,
  environmentContextChanged,
  environmentContextUpdate,
  environmentContextMessage,
  isContextualUserMessage,
  shellName,
  type EnvironmentContextInput,
} from '../../src/context/index.js';
import { localTimezone, zoneFromSystem } from '../../src/context/environment-context.js';

const base: EnvironmentContextInput = {
  cwd: '/repo',
  shell: 'bash',
  sandboxMode: 'workspace-write',
  approvalPolicy: 'on-request',
  networkAccess: false,
  now: new Date('2026-06-20T23:30:00Z'),
  timezone: 'America/Los_Angeles',
};

describe('environment context', () => {
  it('renders the XML-ish block with two-space indented children', () => {
    expect(buildEnvironmentContext(base)).toBe(
      [
        '<environment_context>',
        '  <cwd>/repo</cwd>',
        '  <approval_policy>on-request</approval_policy>',
        '  <sandbox_mode>workspace-write</sandbox_mode>',
        '  <network_access>restricted</network_access>',
        '  <shell>bash</shell>',
        '  <current_date>2026-06-20</current_date>',
        '  <timezone>America/Los_Angeles</timezone>',
        '</environment_context>',
      ].join('\n'),
    );
  });

  it('omits unknown fields and lists writable roots', () => {
    expect(buildEnvironmentContext({ cwd: '/a&b', writableRoots: ['/a', '/tmp'], networkAccess: 'enabled' })).toBe(
      [
        '<environment_context>',
        '  <cwd>/a&amp;b</cwd>',
        '  <network_access>enabled</network_access>',
        '  <writable_roots>',
        '    <root>/a</root>',
        '    <root>/tmp</root>',
        '  </writable_roots>',
        '</environment_context>',
      ].join('\n'),
    );
  });

  it('uses the date in the given timezone', () => {
    expect(dateInTimezone(new Date('2026-06-20T23:30:00Z'), 'Asia/Tokyo')).toBe('2026-06-21');
  });

  it('detects changes that the model would see, and sends only those', () => {
    const laterSameDay = { ...base, now: new Date('2026-06-21T01:00:00Z') }; // still the 20th in LA
    expect(environmentContextChanged(base, laterSameDay)).toBe(false);
    expect(environmentContextUpdate(base, laterSameDay)).toBeUndefined();
    const moved = { ...base, cwd: '/repo/pkg', now: new Date('2026-06-21T12:00:00Z') };
    expect(environmentContextChanged(base, moved)).toBe(true);
    expect(environmentContextUpdate(base, moved)).toBe(
      '<environment_context>\n  <cwd>/repo/pkg</cwd>\n  <current_date>2026-06-21</current_date>\n</environment_context>',
    );
    expect(environmentContextChanged(base, { ...base, approvalPolicy: 'never' })).toBe(true);
    expect(environmentContextChanged(base, { ...base, networkAccess: 'restricted' })).toBe(false);
  });

  it('is a contextual user message', () => {
    expect(isContextualUserMessage(environmentContextMessage(buildEnvironmentContext(base)))).toBe(true);
  });
});

describe('shellName', () => {
  it('takes the basename of $SHELL', () => {
    expect(shellName({ SHELL: '/usr/bin/zsh' })).toBe('zsh');
    expect(shellName({ SHELL: 'C:\\Windows\\pwsh.exe' })).toBe('pwsh');
    expect(shellName({})).toBeUndefined();
  });
});

describe('the local timezone without Intl', () => {
  const haveZoneinfo = zoneFromSystem({ TZ: 'Asia/Tokyo' }) !== null;

  it.runIf(haveZoneinfo)('takes an IANA name from TZ (with or without the leading colon)', () => {
    expect(zoneFromSystem({ TZ: 'Asia/Tokyo' })).toBe('Asia/Tokyo');
    expect(zoneFromSystem({ TZ: ':Europe/Berlin' })).toBe('Europe/Berlin');
  });

  it('leaves POSIX rules, unknown names and paths to Intl', () => {
    expect(zoneFromSystem({ TZ: 'CET-1CEST,M3.5.0,M10.5.0/3' })).toBeNull();
    expect(zoneFromSystem({ TZ: 'Nowhere/Atlantis' })).toBeNull();
    expect(zoneFromSystem({ TZ: '../../etc/passwd' })).toBeNull();
  });

  it('names a zone whose dates match what Intl computes for it', () => {
    const zone = localTimezone();
    expect(zone).not.toBe('');
    const intlDate = (date: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
    for (let hour = 0; hour < 48; hour += 5) {
      const date = new Date(Date.UTC(2026, 0, 31, hour, 30));
      expect(dateInTimezone(date, zone)).toBe(intlDate(date));
    }
  });
});
