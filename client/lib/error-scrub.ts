/**
 * What may leave the browser in an error report: no token, no email address, no query string (patient ids,
 * access codes and reset tokens travel there), no request body, no user. Loaded together with Sentry.
 */
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

export type Scrubbable = {
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

/** Starts Sentry with our own window listeners left in charge and every event and breadcrumb scrubbed. */
export function initSentry(sentry: typeof import('@sentry/browser'), dsn: string): void {
  sentry.init({
    dsn,
    // Our own window listeners report (lib/error-reporting.ts); Sentry's would send every error twice.
    integrations: (defaults) => defaults.filter((integration) => integration.name !== 'GlobalHandlers'),
    beforeSend: (event) => scrubEvent(event as Parameters<typeof scrubEvent>[0]) as typeof event,
    beforeBreadcrumb: (crumb) => (crumb.category === 'console' ? null : crumb),
  });
}
