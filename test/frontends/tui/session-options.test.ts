// How [tui] settings and --no-alt-screen decide the session's screen and notifications.
import { expect, test } from 'vitest';
import { notificationsOn, useAlternateScreen } from '../../../src/frontends/tui/session.js';

test('inline unless tui.alternate_screen asks; "auto" is the alternate screen except in Zellij; --no-alt-screen wins', () => {
  expect(useAlternateScreen(undefined, undefined, {})).toBe(false);
  expect(useAlternateScreen('never', undefined, {})).toBe(false);
  expect(useAlternateScreen('always', undefined, {})).toBe(true);
  expect(useAlternateScreen('always', true, {})).toBe(true);
  expect(useAlternateScreen('always', false, {})).toBe(false);
  expect(useAlternateScreen('auto', undefined, {})).toBe(true);
  expect(useAlternateScreen('auto', undefined, { ZELLIJ: '0' })).toBe(false);
  expect(useAlternateScreen('auto', false, {})).toBe(false);
});

test('tui.notifications: on by default, off with false, Codex\'s list of events turns them on unless empty', () => {
  expect(notificationsOn(undefined)).toBe(true);
  expect(notificationsOn(true)).toBe(true);
  expect(notificationsOn(false)).toBe(false);
  expect(notificationsOn(['agent-turn-complete'])).toBe(true);
  expect(notificationsOn([])).toBe(false);
});
