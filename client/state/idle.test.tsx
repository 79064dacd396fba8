import { afterEach, describe, expect, test as base, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { watchIdle } from './idle.ts';
import { IdleWarning } from '../shell/IdleWarning.tsx';
import { resetSessionForTests, token, user } from './session.ts';
import { draftStorageKey } from '../lib/drafts.ts';
import { setToken } from '../lib/token.ts';
import { mockFetch, noContent, json, buildMe, type RecordedCall } from '../../test/helpers/client-fetch.ts';
import { idleMinutesMeta, otherTab, signedInTab } from '../../test/helpers/client-session.ts';

const MINUTE = 60_000;
const DRAFT = draftStorageKey('coach-1', 'p1', 'comment');

interface Fixtures {
  /** A signed-in tab on a patient's page with a draft, its idle watch and warning running on fake time; the calls it made. */
  calls: RecordedCall[];
}

const test = base.extend<Fixtures>({
  calls: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest fixtures take their dependencies as a destructured first argument
    async ({}, use) => {
      resetSessionForTests();
      vi.useFakeTimers({ now: new Date('2026-11-26T08:00:00Z'), toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
      history.replaceState(null, '', '/patient/p1?tab=notes');
      const { calls } = mockFetch({ 'GET /auth/me': json(buildMe()), 'POST /auth/logout': noContent() });
      signedInTab();
      localStorage.setItem('lastActivity', String(Date.now())); // the tab loads into a live session
      localStorage.setItem(DRAFT, 'Patientin schläft schlecht');
      const stop = watchIdle();
      render(<IdleWarning />);
      await use(calls);
      stop();
      vi.useRealTimers();
    },
    { auto: true },
  ],
});

const warning = () => screen.queryByRole('alertdialog', { name: 'Sind Sie noch da?' });
/** Lets fake time pass, then whatever became due (a re-render) run. */
async function later(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await vi.advanceTimersByTimeAsync(0);
}
const minutes = (n: number) => later(n * MINUTE);
const sent = (calls: RecordedCall[], what: string) => calls.filter((c) => `${c.method} ${c.path}` === what).length;

afterEach(() => vi.unstubAllGlobals());

describe('the idle warning', () => {
  test('appears two minutes before the end, not earlier, with the focus on "Angemeldet bleiben"', async () => {
    await minutes(27.9);
    expect(warning()).toBeNull();
    await minutes(0.2);
    expect(warning()).not.toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Angemeldet bleiben' }));
  });

  test('counts down the time that is left', async () => {
    await minutes(28);
    expect(screen.getByRole('timer').textContent).toBe('Ohne Aktivität werden Sie in 2:00 abgemeldet.');
    await later(15_000);
    expect(screen.getByRole('timer').textContent).toBe('Ohne Aktivität werden Sie in 1:45 abgemeldet.');
    await later(100_000);
    expect(screen.getByRole('timer').textContent).toBe('Ohne Aktivität werden Sie in 0:05 abgemeldet.');
  });

  test('"Angemeldet bleiben" closes it, asks the server (which moves its idle clock) and gives the full time again', async ({ calls }) => {
    await minutes(29);
    const before = sent(calls, 'GET /v2/auth/me');
    fireEvent.click(screen.getByRole('button', { name: 'Angemeldet bleiben' }));
    await later(0);
    expect(warning()).toBeNull();
    expect(sent(calls, 'GET /v2/auth/me')).toBe(before + 1);
    await minutes(27.9);
    expect(warning()).toBeNull();
    expect(token.value).toBe('tok');
    await minutes(0.2);
    expect(warning()).not.toBeNull();
  });

  test('input on the page before the warning keeps the session; a moving mouse is written to storage only every few seconds', async () => {
    await minutes(20);
    const movedAt = Date.now();
    fireEvent.pointerMove(document.body);
    expect(localStorage.getItem('lastActivity')).toBe(String(movedAt));
    await later(2_000);
    fireEvent.pointerMove(document.body);
    expect(localStorage.getItem('lastActivity')).toBe(String(movedAt));
    await later(4_000);
    fireEvent.pointerMove(document.body);
    expect(localStorage.getItem('lastActivity')).toBe(String(movedAt + 6_000));
    await minutes(27.8);
    expect(warning()).toBeNull();
    expect(token.value).toBe('tok');
  });

  test('input soon after the page loaded asks the server nothing more (the session check just did)', async ({ calls }) => {
    await later(10_000);
    fireEvent.pointerDown(document.body);
    expect(sent(calls, 'GET /v2/auth/me')).toBe(0);
  });

  test('input after half the idle time without a request asks the server, so reading a long record keeps its session too', async ({ calls }) => {
    await minutes(10);
    fireEvent.keyDown(document.body, { key: 'ArrowDown' });
    expect(sent(calls, 'GET /v2/auth/me')).toBe(0);
    await minutes(6);
    fireEvent.keyDown(document.body, { key: 'ArrowDown' });
    expect(sent(calls, 'GET /v2/auth/me')).toBe(1);
    await later(10_000);
    fireEvent.keyDown(document.body, { key: 'ArrowDown' });
    expect(sent(calls, 'GET /v2/auth/me')).toBe(1);
  });

  test.each([
    ['a key', () => fireEvent.keyDown(document.body, { key: 'a' })],
    ['the wheel', () => fireEvent.wheel(document.body)],
    ['a touch', () => fireEvent.touchStart(document.body)],
    ['the window getting the focus back', () => fireEvent.focus(window)],
  ])('%s counts as input', async (_input, act) => {
    await minutes(20);
    act();
    await minutes(9);
    expect(warning()).toBeNull();
  });

  test('input in another tab of the browser closes it here at once and keeps this tab signed in', async () => {
    await minutes(28.5);
    expect(warning()).not.toBeNull();
    otherTab('lastActivity', String(Date.now()));
    await later(0);
    expect(warning()).toBeNull();
    await minutes(27.9);
    expect(token.value).toBe('tok');
  });

  test('with an idle time of 1 minute appears for its last 30 seconds', async () => {
    idleMinutesMeta('1');
    await later(29_000);
    expect(warning()).toBeNull();
    await later(2_000);
    expect(screen.getByRole('timer').textContent).toBe('Ohne Aktivität werden Sie in 0:29 abgemeldet.');
  });

  test('a new sign-in starts the idle time afresh, whenever the previous input was', async () => {
    await minutes(20);
    setToken('tok-2'); // this tab or another signs in
    token.value = 'tok-2';
    await minutes(27.9);
    expect(warning()).toBeNull();
    await minutes(0.2);
    expect(warning()).not.toBeNull();
  });

  test('follows the configured idle time: with 5 minutes it appears after 3', async () => {
    idleMinutesMeta('5');
    await minutes(2.9);
    expect(warning()).toBeNull();
    await minutes(0.2);
    expect(warning()).not.toBeNull();
  });
});

describe('the idle logout', () => {
  test('at the end signs out, tells the server, keeps the draft and sends the coach to the login screen that returns here', async ({ calls }) => {
    await minutes(30);
    expect(sent(calls, 'POST /v2/auth/logout')).toBe(1);
    expect(calls.find((c) => c.path === '/v2/auth/logout')?.headers.authorization).toBe('Bearer tok');
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(user.value).toBeNull();
    expect(localStorage.getItem(DRAFT)).toBe('Patientin schläft schlecht');
    expect(`${location.pathname}${location.search}`).toBe('/login?returnUrl=%2Fpatient%2Fp1%3Ftab%3Dnotes&reason=idle');
    // The other tabs read why the session ended.
    expect(localStorage.getItem('sessionEnd')).toBe('idle');
    expect(warning()).toBeNull();
  });

  test('in a tab whose session another tab has already ended sends no second logout', async ({ calls }) => {
    await minutes(29.9);
    localStorage.removeItem('accessToken'); // the other tab's storage event is still on its way
    await minutes(0.2);
    expect(sent(calls, 'POST /v2/auth/logout')).toBe(0);
  });

  test('does not wait for the server: it signs out even while the logout call hangs', async () => {
    mockFetch({ 'POST /auth/logout': () => new Promise<Response>(() => undefined) });
    await minutes(30);
    expect(user.value).toBeNull();
    expect(location.pathname).toBe('/login');
  });

  test('a computer that slept through the end signs out as it wakes', async () => {
    vi.setSystemTime(Date.now() + 3 * 60 * MINUTE); // timers did not run while asleep
    await vi.advanceTimersByTimeAsync(1_000);
    expect(user.value).toBeNull();
    expect(location.search).toContain('reason=idle');
  });
});

describe('a tab loaded into a running session (a reload, a new tab)', () => {
  base('goes on counting the time of the last input: past the idle time it signs out at once', async () => {
    resetSessionForTests();
    vi.useFakeTimers({ now: new Date('2026-11-26T08:00:00Z'), toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    history.replaceState(null, '', '/patient/p1');
    mockFetch({ 'POST /auth/logout': noContent() });
    signedInTab('tok-restored');
    localStorage.setItem('lastActivity', String(Date.now() - 31 * MINUTE)); // the laptop was closed, the tab restored
    const stop = watchIdle();
    try {
      expect(user.value).toBeNull();
      expect(location.search).toContain('reason=idle');
    } finally {
      stop();
      vi.useRealTimers();
    }
  });
});
