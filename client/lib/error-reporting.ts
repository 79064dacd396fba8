/**
 * Unhandled errors go to the console and, when <meta name="sentry-dsn"> is present, to Sentry.
 * @sentry/browser is fetched with a dynamic import only after the first screen has rendered, so it never
 * counts against the first-screen budget; errors raised before that are queued and sent once it is ready.
 * Health data must never leave the browser in a report: see scrubEvent().
 */
type SentryModule = typeof import('@sentry/browser');

const MAX_QUEUE = 20;
let queue: unknown[] = [];
let sentry: SentryModule | null = null;
let installed = false;

export function sentryDsn(): string | null {
  const content = document.querySelector('meta[name="sentry-dsn"]')?.getAttribute('content')?.trim();
  return content ? content : null;
}

/** Report one error: console always, Sentry when configured (queued until it has loaded). */
export function reportError(error: unknown): void {
  console.error(error);
  if (sentry) sentry.captureException(error);
  else if (queue.length < MAX_QUEUE) queue.push(error);
}

export function installErrorHandlers(target: Window = window): void {
  if (installed) return;
  installed = true;
  target.addEventListener('error', (event) => reportError(event.error ?? event.message));
  target.addEventListener('unhandledrejection', (event) => reportError(event.reason));
}

/** Called once the first screen has rendered. Loads Sentry only when a DSN is configured. */
export async function startErrorReporting(load: () => Promise<SentryModule> = () => import('@sentry/browser')): Promise<void> {
  const dsn = sentryDsn();
  if (!dsn || sentry) return;
  try {
    // Sentry's options come with the scrubbing (error-scrub.ts): neither is needed before the first screen.
    const [module, { initSentry }] = await Promise.all([load(), import('./error-scrub.ts')]);
    initSentry(module, dsn);
    sentry = module;
    const pending = queue;
    queue = [];
    for (const error of pending) module.captureException(error);
  } catch (error) {
    console.error('Error reporting could not start', error);
  }
}

/** Test hook. */
export function resetErrorReportingForTests(): void {
  queue = [];
  sentry = null;
}
