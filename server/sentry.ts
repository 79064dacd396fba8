import type { ErrorEvent } from '@sentry/node';
import { redactUrl } from './logger.ts';

/**
 * Error reports leave the building, so they carry no personal data: no headers (bearer tokens, cookies),
 * no bodies (patient fields), no query strings (reset tokens), no user. Applied to every event in beforeSend.
 */
export function scrubEvent(event: ErrorEvent): ErrorEvent {
  if (event.request) {
    const { method, url } = event.request;
    event.request = { method, url: url ? redactUrl(url).split('?')[0] : undefined };
  }
  delete event.user;
  if (event.breadcrumbs) {
    event.breadcrumbs = event.breadcrumbs.map((crumb) => {
      const data = crumb.data && typeof crumb.data.url === 'string' ? { ...crumb.data, url: crumb.data.url.split('?')[0] } : crumb.data;
      return { ...crumb, data };
    });
  }
  if (event.extra) delete event.extra;
  // Local variables of a stack frame can hold anything (a patient record): never sent.
  for (const value of event.exception?.values ?? []) {
    for (const frame of value.stacktrace?.frames ?? []) delete frame.vars;
  }
  return event;
}

export interface Reporter {
  capture: (error: unknown) => void;
  close: () => Promise<void>;
}

const noReporter: Reporter = { capture: () => {}, close: async () => {} };

/** @sentry/node is loaded and started only when SENTRY_DSN is set; otherwise nothing is reported anywhere. */
export async function startSentry(dsn: string | undefined, environment: string): Promise<Reporter> {
  if (!dsn) return noReporter;
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn,
    environment,
    // Sentry 11's replacement for sendDefaultPii: false - collect no user, cookie, header, body or query data.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    tracesSampleRate: 0,
    includeLocalVariables: false,
    beforeSend: scrubEvent,
    beforeBreadcrumb: (crumb) => (crumb.category === 'console' ? null : crumb),
  });
  return {
    capture: (error) => {
      Sentry.captureException(error);
    },
    close: async () => {
      await Sentry.close(2000);
    },
  };
}
