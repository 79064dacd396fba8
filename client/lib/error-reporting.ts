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

const EMAIL = /[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}/gi;
const BEARER = /Bearer\s+[A-Za-z0-9._~+/=-]+/gi;
const TOKEN_PARAM = /((?:access_?token|accessToken|token|code|password|patientId)=)[^&\s#]+/gi;
const URL_QUERY = /(https?:\/\/[^\s?#]+|\/[\w\-./]*)\?[^\s#]*/g;
const LONG_SECRET = /\b[A-Za-z0-9_-]{32,}\b/g;

/** Remove anything that could be a token, an email address, a query string or personal data. */
export function scrubText(text: string): string {
  return text
    .replace(BEARER, 'Bearer [removed]')
    .replace(TOKEN_PARAM, '$1[removed]')
    .replace(URL_QUERY, '$1')
    .replace(EMAIL, '[email]')
    .replace(LONG_SECRET, '[removed]');
}

function stripQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

type Scrubbable = {
  message?: string;
  user?: unknown;
  request?: { url?: string; data?: unknown; cookies?: unknown; headers?: unknown; query_string?: unknown };
  exception?: { values?: { value?: string }[] };
  breadcrumbs?: { message?: string; data?: Record<string, unknown> }[];
  extra?: unknown;
  contexts?: Record<string, unknown>;
};

/** Sentry beforeSend: strips tokens, emails, query strings, request data and user info. */
export function scrubEvent<E extends Scrubbable>(event: E): E {
  delete event.user;
  delete event.extra;
  if (event.request) {
    event.request = event.request.url ? { url: scrubText(stripQuery(event.request.url)) } : {};
  }
  if (event.message) event.message = scrubText(event.message);
  for (const value of event.exception?.values ?? []) {
    if (value.value) value.value = scrubText(value.value);
  }
  if (event.breadcrumbs) {
    event.breadcrumbs = event.breadcrumbs.map((crumb) => {
      const data: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(crumb.data ?? {})) {
        if (key === 'url' || key === 'from' || key === 'to') data[key] = typeof value === 'string' ? stripQuery(value) : value;
        else if (key === 'method' || key === 'status_code') data[key] = value;
      }
      return { ...crumb, message: crumb.message ? scrubText(crumb.message) : crumb.message, data };
    });
  }
  return event;
}

/** Called once the first screen has rendered. Loads Sentry only when a DSN is configured. */
export async function startErrorReporting(load: () => Promise<SentryModule> = () => import('@sentry/browser')): Promise<void> {
  const dsn = sentryDsn();
  if (!dsn || sentry) return;
  try {
    const module = await load();
    module.init({
      dsn,
      // Our own window listeners report; Sentry's would send every error twice.
      integrations: (defaults) => defaults.filter((integration) => integration.name !== 'GlobalHandlers'),
      beforeSend: (event) => scrubEvent(event as Scrubbable) as typeof event,
      beforeBreadcrumb: (crumb) => (crumb.category === 'console' ? null : crumb),
    });
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
