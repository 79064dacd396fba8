import type { ErrorEvent } from '@sentry/node-core/light';
import { redactUrl } from './shared/redaction.ts';

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
    // Breadcrumb data keeps only what names a request without its contents: the path (no query, which can hold a
    // search for a patient's name or a reset token; Sentry also copies the query into its own `http.query` field),
    // the method and the status.
    event.breadcrumbs = event.breadcrumbs.map((crumb) => {
      if (!crumb.data) return crumb;
      const data: Record<string, unknown> = {};
      if (typeof crumb.data.url === 'string') data.url = redactUrl(crumb.data.url).split('?')[0];
      for (const key of ['method', 'http.method', 'status_code']) if (key in crumb.data) data[key] = crumb.data[key];
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

/**
 * @sentry/node-core's light entry (Sentry's Node SDK without OpenTelemetry or the bundler plugins and their CLI
 * binary: errors only, which is all the gateway reports) is loaded and started only when SENTRY_DSN is set;
 * otherwise nothing is reported anywhere.
 */
export async function startSentry(dsn: string | undefined, environment: string): Promise<Reporter> {
  if (!dsn) return noReporter;
  const Sentry = await import('@sentry/node-core/light');
  Sentry.init({
    dsn,
    environment,
    // Collect no user, cookie, header, body or query data (scrubEvent removes them again, whatever an integration adds).
    sendDefaultPii: false,
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
