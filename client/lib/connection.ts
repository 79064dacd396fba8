import { signal } from '@preact/signals-react';

/**
 * Whether the server can be reached. False when the browser says it is offline, and when a request got no
 * answer at all (the line dropped, the gateway restarts): the browser still thinks it is online then. While
 * false, a quiet banner says so (components/ConnectionBanner.tsx) and the gateway's /healthz is asked now and
 * then; the first answer, to that or to any request, ends it and tells every screen waiting for data to try
 * again (onReconnect).
 */
export const online = signal(typeof navigator === 'undefined' || navigator.onLine !== false);

const reconnectListeners = new Set<() => void>();
let probeTimer: ReturnType<typeof setTimeout> | null = null;
let probeDelay = 0;
/** Probe after 1 s, then 2, 4, 8 and every 15 s at most. */
const FIRST_PROBE_MS = 1000;
const MAX_PROBE_MS = 15_000;

function scheduleProbe(): void {
  if (probeTimer !== null) return;
  probeDelay = Math.min(probeDelay ? probeDelay * 2 : FIRST_PROBE_MS, MAX_PROBE_MS);
  probeTimer = setTimeout(() => {
    probeTimer = null;
    // /healthz is the gateway's own liveness answer: no token, no upstream, nothing personal.
    fetch('/healthz', { cache: 'no-store', credentials: 'omit' }).then(
      (response) => (response.ok ? reportAnswer() : scheduleProbe()),
      () => scheduleProbe(),
    );
  }, probeDelay);
}

/** A request got no answer: the server is out of reach until something answers again. */
export function reportNoAnswer(): void {
  online.value = false;
  scheduleProbe();
}

/** Something answered (any HTTP status counts: the line works). */
export function reportAnswer(): void {
  if (probeTimer !== null) clearTimeout(probeTimer);
  probeTimer = null;
  probeDelay = 0;
  if (online.value) return;
  online.value = true;
  for (const listener of [...reconnectListeners]) listener();
}

/** Calls `listener` each time the connection comes back; returns the unsubscribe function. */
export function onReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => {
    online.value = false;
  });
  // The browser's word is not proof that the server answers: ask it right away.
  window.addEventListener('online', () => {
    if (probeTimer !== null) clearTimeout(probeTimer);
    probeTimer = null;
    probeDelay = 0;
    scheduleProbe();
  });
  if (!online.value) scheduleProbe();
}

/** Test hook: back to "online" with no probe pending and no listeners. */
export function resetConnectionForTests(): void {
  if (probeTimer !== null) clearTimeout(probeTimer);
  probeTimer = null;
  probeDelay = 0;
  online.value = true;
  reconnectListeners.clear();
}
