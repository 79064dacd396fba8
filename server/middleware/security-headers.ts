import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { isApiTarget } from './api-path.ts';

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
function helmetFor(sentryDsn: string | undefined): RequestHandler {
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

/**
 * Browser features the portal never uses, turned off for the page and anything it embeds: an XSS or a hostile
 * script in a dependency cannot switch on the camera or microphone, read the location, or reach USB, serial,
 * Bluetooth or MIDI devices on a clinic PC. Only names Chromium knows, since it warns about each unknown one
 * in the console (bluetooth stays, though Chromium builds without Bluetooth support do not know it);
 * clipboard-write stays allowed for the copy buttons, fullscreen for the PDF viewer.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'bluetooth',
  'browsing-topics',
  'camera',
  'clipboard-read',
  'compute-pressure',
  'display-capture',
  'encrypted-media',
  'gamepad',
  'geolocation',
  'gyroscope',
  'hid',
  'identity-credentials-get',
  'idle-detection',
  'local-fonts',
  'magnetometer',
  'microphone',
  'midi',
  'otp-credentials',
  'payment',
  'picture-in-picture',
  'publickey-credentials-create',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'storage-access',
  'usb',
  'window-management',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

type HeaderChange = [name: string, value: string | null];

/**
 * What a middleware that only sets (or removes) fixed headers does to a response, recorded once on a stand-in.
 * helmet's answer depends on nothing in the request with this configuration (no nonces), so running its
 * fourteen middlewares for every request would compute the same strings again each time.
 */
export function recordHeaderChanges(middleware: RequestHandler): HeaderChange[] {
  const changes: HeaderChange[] = [];
  const stand = {
    setHeader: (name: string, value: string | number | readonly string[]) => changes.push([name, String(value)]),
    removeHeader: (name: string) => changes.push([name, null]),
  };
  let passed = false;
  void middleware({ headers: {} } as Request, stand as unknown as Response, (error?: unknown) => {
    if (error) throw error;
    passed = true;
  });
  if (!passed) throw new Error('the header middleware did not finish synchronously');
  return changes;
}

/** helmet's headers that also mean something on an answer that is not a page (taken from its list, so the values stay helmet's). */
const API_KEEPS = new Set(['strict-transport-security', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'cross-origin-resource-policy']);

/**
 * The headers of a /v2 answer: JSON the client fetches, never a page. These are the headers OWASP's REST Security
 * Cheat Sheet names for API answers (Cache-Control: no-store comes with the proxy), plus Referrer-Policy and
 * Cross-Origin-Resource-Policy (no other site may load an answer as an image or script and read what leaks). Its
 * CSP is stricter than the page's: a JSON answer opened as a document may load and run nothing, and be framed
 * nowhere. What only a page uses (the page's CSP, Permissions-Policy, the opener and agent-cluster isolation,
 * DNS prefetching, IE's download and Flash policy switches) is left off: it guarded nothing there and was 1.2 KB
 * of every API answer, which a coach on a slow line waited for with every call.
 */
function apiHeaderChanges(pageChanges: readonly HeaderChange[]): HeaderChange[] {
  return [
    ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
    ...pageChanges.filter(([name, value]) => value === null || API_KEEPS.has(name.toLowerCase())),
  ];
}

/**
 * helmet's headers and Permissions-Policy (helmet has no option for it) on every answer, from a list computed once:
 * the same header values as helmet itself would set; /v2 answers get the API set instead (apiHeaderChanges).
 */
export function securityHeaders(sentryDsn: string | undefined): RequestHandler {
  const helmetChanges = recordHeaderChanges(helmetFor(sentryDsn));
  const page = [...helmetChanges, ['Permissions-Policy', PERMISSIONS_POLICY] as HeaderChange];
  const api = apiHeaderChanges(helmetChanges);
  return (req, res, next) => {
    for (const [name, value] of isApiTarget(req.url) ? api : page) {
      if (value === null) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}

/** Headers an upstream might send that would weaken or contradict the gateway's own policy. */
export const UPSTREAM_HEADERS_TO_DROP = [
  'content-security-policy',
  'strict-transport-security',
  'referrer-policy',
  'x-content-type-options',
  'x-frame-options',
  'x-powered-by',
  'permissions-policy',
  'cross-origin-resource-policy',
  // Only the gateway decides what a browser wipes: "storage" would take the sealed drafts, "cookies" the XSRF pair.
  'clear-site-data',
];

/** POST /v2/auth/logout as an upstream router would match it (any case, a trailing slash). */
const isLogout = (method: string | undefined, path: string) => method === 'POST' && /^\/v2\/auth\/logout\/*$/i.test(path);

/**
 * A sign-out empties the browser's HTTP cache, where answers with patient data could otherwise be read by the next
 * person at a shared PC: a successful one, and one answered 401 because the session had already ended (the
 * client's idle sign-out after the computer slept past the idle time, a locked account), where the cache holds
 * the same answers. Not "storage": drafts sealed under the session's key must survive an idle sign-out to be
 * offered again; not "cookies": the next sign-in needs the XSRF cookie.
 */
export function clearSiteDataHeader(method: string | undefined, path: string, status: number | undefined): string | undefined {
  if (!isLogout(method, path) || status === undefined) return undefined;
  return (status >= 200 && status < 300) || status === 401 ? '"cache"' : undefined;
}
