/**
 * Unhandled errors go to the console and, when <meta name="sentry-dsn"> is present, to Sentry.
 * @sentry/browser (about 120 KB) is fetched only when the first error happens, and never before the first screen
 * has rendered: a coach whose session has no error downloads none of it, which on a slow line is seconds saved.
 * Errors raised before that are queued and sent once it has loaded. Sentry's automatic breadcrumbs therefore start
 * with the first error; what they would have recorded before is not worth 120 KB to every coach.
 * Health data must never leave the browser in a report: see scrubEvent().
 */
type SentryModule = typeof import('./sentry-sdk.ts');
type Loader = () => Promise<SentryModule>;

const MAX_QUEUE = 20;
let queue: unknown[] = [];
let sentry: SentryModule | null = null;
let installed = false;
let loader: Loader | null = null;
let loading: Promise<void> | null = null;

export function sentryDsn(): string | null {
  const content = document.querySelector('meta[name="sentry-dsn"]')?.getAttribute('content')?.trim();
  return content ? content : null;
}

/** Report one error: console always, Sentry when configured (loaded by the first error, queued until then). */
export function reportError(error: unknown): void {
  console.error(error);
  if (sentry) sentry.captureException(error);
  else if (queue.length < MAX_QUEUE) queue.push(error);
  if (!sentry && loader) void loadSentry(loader);
}

export function installErrorHandlers(target: Window = window): void {
  if (installed) return;
  installed = true;
  target.addEventListener('error', (event) => reportError(event.error ?? event.message));
  target.addEventListener('unhandledrejection', (event) => reportError(event.reason));
}

/**
 * Called once the first screen has rendered. With a DSN configured, from now on the first error loads Sentry;
 * errors queued before this point load it at once.
 */
export async function startErrorReporting(load: Loader = () => import('./sentry-sdk.ts')): Promise<void> {
  if (!sentryDsn() || sentry) return;
  loader = load;
  if (queue.length) await loadSentry(load);
}

function loadSentry(load: Loader): Promise<void> {
  loading ??= (async () => {
    const dsn = sentryDsn();
    if (!dsn) return;
    try {
      // Sentry's options come with the scrubbing (error-scrub.ts): neither is needed before an error.
      const [module, { initSentry }] = await Promise.all([load(), import('./error-scrub.ts')]);
      initSentry(module, dsn);
      sentry = module;
      const pending = queue;
      queue = [];
      for (const error of pending) module.captureException(error);
    } catch (error) {
      console.error('Error reporting could not start', error);
    }
  })();
  return loading;
}

/** Test hook. */
export function resetErrorReportingForTests(): void {
  queue = [];
  sentry = null;
  loader = null;
  loading = null;
}
