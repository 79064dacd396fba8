import * as v from 'valibot';
import { MappingError, readMapping, type UpstreamMapping } from './mapping/mapping-file.ts';
import {
  assertBothOrNeither,
  ConfigError,
  emailAddress,
  flag,
  httpUrl,
  logLevel,
  type LOG_LEVELS,
  operatorPassword,
  parseUrl,
  readEnv,
  smtpUrl,
  wholeNumber,
} from './shared/config-fields.ts';

export { ConfigError };

/**
 * Environment -> Config, checked once at start-up. Every variable has a schema with a message that says
 * what it expects (the field helpers of server/shared/config-fields.ts, shared with the built-in upstream), so a
 * bad value stops the process with one clear line (see configErrorLine).
 */

/**
 * TRUST_PROXY is handed to Express's "trust proxy" setting. It decides whether X-Forwarded-For/-Proto/-Host
 * from the peer are believed (client IP in logs, Secure cookies behind a TLS-terminating proxy). Believing
 * them from an untrusted peer would let any client claim to be https or spoof its address.
 */
const TrustProxySchema = v.pipe(
  v.optional(v.string(), 'false'),
  v.check(
    (value) =>
      /^(true|false)$/.test(value) ||
      /^\d{1,2}$/.test(value) ||
      value.split(',').every((part) => /^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/.test(part.trim())),
    'TRUST_PROXY must be true, false, a hop count (1) or a comma list of addresses/subnets (loopback, 10.0.0.0/8)',
  ),
  v.transform((value): boolean | number | string => (value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value)),
);

/** A Host name or address as it may appear in ALLOWED_HOSTS: a leading dot also allows every subdomain. */
const HOST_ENTRY = /^(\.?[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*|\[[0-9a-f:.]+\]|[0-9a-f:]*:[0-9a-f:.]+)$/i;

/** IPv6 literals are compared in brackets, as a Host header carries them; names in lower case. */
export function normalizeHostEntry(entry: string): string {
  const host = entry.trim().toLowerCase().replace(/\.$/, '');
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

const isPublicOrigin = (value: string) => {
  const url = parseUrl(value);
  return !!url && /^https?:$/.test(url.protocol) && url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
};

/** Quotation marks are stripped from the instance title (docs/product.md#purpose): compose files and shells like to keep them. */
export function cleanTitle(raw: string): string {
  let title = raw.trim();
  if (/^'.*'$/.test(title)) title = title.slice(1, -1);
  return title.replace(/["„“”«»]/g, '').trim();
}

export const EnvSchema = v.object({
  PORT: wholeNumber('PORT', 0, 65535, 8080),
  HOST: v.optional(v.pipe(v.string(), v.regex(/^[\w.:-]+$/, 'HOST must be a host name or address, for example 0.0.0.0'))),
  UPSTREAM_URL: v.optional(httpUrl('UPSTREAM_URL', 'http://api.internal:3000')),
  // The path of the field-mapping file (server/mapping/mapping-file.ts); read and checked below.
  UPSTREAM_MAPPING: v.optional(v.string()),
  APP_TITLE: v.pipe(
    v.optional(v.string(), 'CL'),
    v.transform(cleanTitle),
    v.minLength(1, 'APP_TITLE must contain text other than quotation marks'),
    v.maxLength(200, 'APP_TITLE must be at most 200 characters'),
  ),
  SENTRY_DSN: v.optional(
    v.pipe(
      v.string(),
      v.url('SENTRY_DSN must be a Sentry DSN URL, for example https://key@o1.ingest.sentry.io/2'),
      v.check((value) => parseUrl(value)?.username !== '', 'SENTRY_DSN must contain the public key before the @'),
    ),
  ),
  SENTRY_ENVIRONMENT: v.optional(v.pipe(v.string(), v.maxLength(64, 'SENTRY_ENVIRONMENT must be at most 64 characters')), 'production'),
  LOG_LEVEL: logLevel('LOG_LEVEL'),
  TRUST_PROXY: TrustProxySchema,
  PROXY_TIMEOUT_MS: wholeNumber('PROXY_TIMEOUT_MS', 100, 600_000, 30_000),
  // The gateway closes a pooled upstream connection idle this long; the upstream must keep it open longer.
  UPSTREAM_IDLE_TIMEOUT_MS: wholeNumber('UPSTREAM_IDLE_TIMEOUT_MS', 100, 600_000, 4_000),
  // A client must send its whole header block within this time (slow-loris limit); a load balancer in front may want less.
  HEADERS_TIMEOUT_MS: wholeNumber('HEADERS_TIMEOUT_MS', 1_000, 120_000, 20_000),
  PUBLIC_URL: v.optional(
    v.pipe(
      v.string(),
      v.check(isPublicOrigin, 'PUBLIC_URL must be the address people open, an http(s) origin without path, for example https://coach.example.org'),
    ),
  ),
  ALLOWED_HOSTS: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (value) => value.split(',').every((entry) => HOST_ENTRY.test(entry.trim())),
        'ALLOWED_HOSTS must be a comma-separated list of host names or addresses without port, for example coach.example.org,.example.org,10.0.0.5',
      ),
    ),
  ),
  NODE_ENV: v.optional(v.string()),
  XSRF_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'XSRF_SECRET must be at least 32 characters (for example: openssl rand -hex 32)'))),
  SHUTDOWN_GRACE_MS: wholeNumber('SHUTDOWN_GRACE_MS', 0, 600_000, 10_000),
  // The page's idle sign-out and the built-in upstream's token lifetime. A week idle and a year in all are far
  // beyond any sensible setting: the limits catch a unit mistake (seconds for minutes).
  SESSION_IDLE_MINUTES: wholeNumber('SESSION_IDLE_MINUTES', 1, 7 * 24 * 60, 30),
  SESSION_MAX_HOURS: wholeNumber('SESSION_MAX_HOURS', 1, 365 * 24, 12),
  // Handed on to the built-in upstream when the gateway starts it (UPSTREAM_URL unset).
  DATA_DIR: v.optional(v.string(), './data'),
  DEMO_DATA: flag('DEMO_DATA', true),
  ADMIN_EMAIL: v.optional(emailAddress('ADMIN_EMAIL')),
  ADMIN_PASSWORD: v.optional(operatorPassword('ADMIN_PASSWORD')),
  SMTP_URL: v.optional(smtpUrl('SMTP_URL')),
});

export type Env = v.InferOutput<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string | undefined;
  upstreamUrl: string | undefined;
  /** How the upstream names the contract's fields (UPSTREAM_MAPPING); undefined: the contract's own names. */
  mapping: UpstreamMapping | undefined;
  appTitle: string;
  sentryDsn: string | undefined;
  sentryEnvironment: string;
  logLevel: (typeof LOG_LEVELS)[number];
  trustProxy: boolean | number | string;
  proxyTimeoutMs: number;
  /** How long an idle pooled connection to the upstream is kept (the upstream must keep it open longer). */
  upstreamIdleTimeoutMs: number;
  headersTimeoutMs: number;
  /** The origin people open (PUBLIC_URL, no trailing slash): links in mails point there. Unset outside production only. */
  publicUrl: string | undefined;
  /** ALLOWED_HOSTS, normalized (lower case, IPv6 in brackets; a leading dot allows subdomains). */
  allowedHosts: string[];
  /** Signs the XSRF tokens; replicas behind one load balancer must share it. */
  xsrfSecret: string;
  /** False when the secret was generated for this process only (logged as a warning at start-up). */
  xsrfSecretFromEnv: boolean;
  shutdownGraceMs: number;
  /** The page signs out after idleMinutes without input; the built-in upstream also ends tokens maxHours after sign-in. */
  session: { idleMinutes: number; maxHours: number };
  upstream: { dataDir: string; demoData: boolean; adminEmail?: string; adminPassword?: string; smtpUrl?: string };
}

/** Variables whose values never appear in an error line. */
const SECRET_VARS = new Set(['XSRF_SECRET', 'ADMIN_PASSWORD', 'SENTRY_DSN', 'SMTP_URL', 'ADMIN_EMAIL']);

/** Reads the environment; throws ConfigError (first problem only) when a value is unusable. */
export function loadConfig(env: Record<string, string | undefined>, randomSecret: () => string): Config {
  const e = readEnv(EnvSchema, env, (variable) => !SECRET_VARS.has(variable));
  assertBothOrNeither(e, 'ADMIN_EMAIL', 'ADMIN_PASSWORD');
  // Links in mails (password reset, e-mail verification) must never take their origin from a request, and a
  // production instance has no sensible default for it.
  if (e.NODE_ENV === 'production' && e.PUBLIC_URL === undefined) {
    throw new ConfigError(
      'PUBLIC_URL',
      'PUBLIC_URL must be set when NODE_ENV=production: the address people open, for example https://coach.example.org (links in mails point there)',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    upstreamUrl: e.UPSTREAM_URL,
    mapping: e.UPSTREAM_MAPPING === undefined ? undefined : loadMapping(e.UPSTREAM_MAPPING),
    appTitle: e.APP_TITLE,
    sentryDsn: e.SENTRY_DSN,
    sentryEnvironment: e.SENTRY_ENVIRONMENT,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    proxyTimeoutMs: e.PROXY_TIMEOUT_MS,
    upstreamIdleTimeoutMs: e.UPSTREAM_IDLE_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    publicUrl: e.PUBLIC_URL === undefined ? undefined : new URL(e.PUBLIC_URL).origin,
    allowedHosts: e.ALLOWED_HOSTS === undefined ? [] : e.ALLOWED_HOSTS.split(',').map(normalizeHostEntry),
    xsrfSecret: e.XSRF_SECRET ?? randomSecret(),
    xsrfSecretFromEnv: e.XSRF_SECRET !== undefined,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    session: { idleMinutes: e.SESSION_IDLE_MINUTES, maxHours: e.SESSION_MAX_HOURS },
    upstream: { dataDir: e.DATA_DIR, demoData: e.DEMO_DATA, adminEmail: e.ADMIN_EMAIL, adminPassword: e.ADMIN_PASSWORD, smtpUrl: e.SMTP_URL },
  };
}

/** The mapping file, or a ConfigError naming the file, the place in it and what to fix. */
function loadMapping(file: string): UpstreamMapping {
  try {
    return readMapping(file);
  } catch (error) {
    if (!(error instanceof MappingError)) throw error;
    throw new ConfigError('UPSTREAM_MAPPING', `UPSTREAM_MAPPING ${file}: ${error.message}`);
  }
}

/** The one line printed before exit 1. */
export function configErrorLine(error: ConfigError): string {
  return `Configuration error: ${error.message}`;
}
