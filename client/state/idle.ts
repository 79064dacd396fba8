import { signal } from '@preact/signals-react';
import * as auth from '../api/auth.ts';
import { idleMinutes } from '../lib/session-end.ts';
import { isAuthenticated, token } from './session.ts';
import { END_KEY, endIdleSession } from './session-end.ts';

/*
 * Idle logout. The time of the coach's last input is shared by every tab of the browser through localStorage
 * (ACTIVITY_KEY) rather than a BroadcastChannel: a stored time is still there for a tab that was asleep or frozen
 * in the background when the message went out, and for a reload; the `storage` event tells the awake tabs at once.
 * Every tab compares that time with Date.now() each second instead of setting one long timer: a laptop that slept
 * through the end logs out as it wakes, and a throttled background tab is late by a tick at most.
 */

/** The time of the last input in any tab (ms since 1970), beside the token in localStorage. */
export const ACTIVITY_KEY = 'lastActivity';
/** The warning shows this long before the end; with an idle time of 1 or 2 minutes, for its second half. */
const WARNING_MS = 2 * 60_000;
/** Input is written at most this often: a moving mouse must not write to storage on every event. */
const WRITE_EVERY_MS = 5_000;
const TICK_MS = 1_000;
const INPUT = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'wheel'] as const;

/** Seconds until the idle logout while the warning shows, else null. */
export const secondsLeft = signal<number | null>(null);

let written = 0;
let pinged = 0;
/** The token whose idle time this tab counts: a new one (a sign-in here or in another tab) starts afresh. */
let counted: string | null = null;
/** Where storage is disabled the tab keeps its own time (no other tab can share it then). */
let ownTime = 0;

const idleMs = () => idleMinutes() * 60_000;
const warningMs = () => Math.min(WARNING_MS, idleMs() / 2);

function storedActivity(): number | null {
  try {
    const value = Number(localStorage.getItem(ACTIVITY_KEY));
    return value > 0 ? value : null;
  } catch {
    return ownTime || null;
  }
}

function write(now: number): void {
  written = now;
  ownTime = now;
  try {
    localStorage.setItem(ACTIVITY_KEY, String(now));
  } catch {
    // Storage disabled: ownTime serves this tab.
  }
}

/** The server's idle clock moves only with requests; a 401 here ends the session through the API layer's handler. */
function ping(now: number): void {
  pinged = now;
  auth.getMe().catch(() => undefined);
}

/**
 * Input now, written at most every few seconds. A session without a ping for half the idle time also asks the
 * server: reading a long record sends no request, yet it is activity.
 */
export function recordActivity(): void {
  const now = Date.now();
  // Math.abs: a clock set back must not stop the writes until it has caught up again.
  if (Math.abs(now - written) < WRITE_EVERY_MS) return;
  write(now);
  if (Math.abs(now - pinged) >= idleMs() / 2) ping(now);
}

/** "Angemeldet bleiben": counts as input in every tab and moves the server's idle clock too. */
export function stayActive(): void {
  const now = Date.now();
  write(now);
  ping(now);
  tick();
}

function tick(): void {
  if (!isAuthenticated.value) {
    secondsLeft.value = null;
    return;
  }
  let last = storedActivity();
  if (last === null || token.value !== counted) {
    // A new session starts now (its sign-in has just asked the server); an older session's reason is stale.
    counted = token.value;
    last = Date.now();
    write(last);
    pinged = last;
    forgetEndReason();
  }
  const left = last + idleMs() - Date.now();
  if (left <= 0) {
    secondsLeft.value = null;
    endIdleSession();
    return;
  }
  secondsLeft.value = left <= warningMs() ? Math.ceil(left / 1000) : null;
}

function forgetEndReason(): void {
  try {
    localStorage.removeItem(END_KEY);
  } catch {
    // Storage disabled: nothing was stored.
  }
}

function onInput(): void {
  // While the warning shows, only its button answers it: a nudged mouse or a stray key is no choice to stay.
  if (isAuthenticated.value && secondsLeft.value === null) recordActivity();
}

function onStorage(event: StorageEvent): void {
  if (event.key === ACTIVITY_KEY) tick(); // input in another tab closes this tab's warning at once
}

/** Watch input and time in this tab; returns the function that stops it. */
export function watchIdle(): () => void {
  const options = { capture: true, passive: true };
  for (const type of INPUT) document.addEventListener(type, onInput, options);
  window.addEventListener('focus', onInput);
  window.addEventListener('storage', onStorage);
  written = 0;
  counted = token.value; // a reload goes on counting the session's time
  pinged = Date.now(); // the session check or the sign-in that loaded this module has just asked the server
  const timer = setInterval(tick, TICK_MS);
  tick();
  return () => {
    clearInterval(timer);
    for (const type of INPUT) document.removeEventListener(type, onInput, options);
    window.removeEventListener('focus', onInput);
    window.removeEventListener('storage', onStorage);
  };
}
