import helmet from 'helmet';

/** The Sentry ingest origin from a DSN (https://key@o1.ingest.sentry.io/2 -> https://o1.ingest.sentry.io). */
export function sentryOrigin(dsn: string | undefined): string | undefined {
  if (!dsn) return undefined;
  const url = new URL(dsn);
  return `${url.protocol}//${url.host}`;
}

/**
 * helmet on every response (pages, assets, 404s, gateway-made /v2 errors).
 * The CSP allows nothing inline: an injected <script> or style="" cannot run, so an XSS in patient data
 * cannot execute. img-src additionally allows data: because Pico CSS draws its form icons (select arrow,
 * checkbox tick) as data: SVGs in the stylesheet; images cannot run script, so this adds no XSS path.
 * Referrer-Policy no-referrer keeps the reset token in /reset-password?access_token=... from leaking to
 * other sites through the Referer header.
 */
export function securityHeaders(sentryDsn: string | undefined) {
  const sentry = sentryOrigin(sentryDsn);
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        connectSrc: sentry ? ["'self'", sentry] : ["'self'"],
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
    xContentTypeOptions: true,
    xFrameOptions: { action: 'deny' },
  });
}

/** Headers an upstream might send that would weaken or contradict the gateway's own policy. */
export const UPSTREAM_HEADERS_TO_DROP = [
  'content-security-policy',
  'strict-transport-security',
  'referrer-policy',
  'x-content-type-options',
  'x-frame-options',
  'x-powered-by',
];
