import * as v from 'valibot';
import path from 'node:path';

const flag = (fallback: boolean) =>
  v.pipe(
    v.optional(v.picklist(['true', 'false', '1', '0', 'yes', 'no'], 'must be true or false'), fallback ? 'true' : 'false'),
    v.transform((value) => value === 'true' || value === '1' || value === 'yes'),
  );
const integer = (fallback: number, min: number, max: number) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.transform(Number),
    v.number(),
    v.integer('must be a whole number'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

const EnvSchema = v.object({
  UPSTREAM_PORT: integer(3001, 0, 65535),
  UPSTREAM_HOST: v.optional(v.pipe(v.string(), v.minLength(1)), '127.0.0.1'),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './data'),
  DEMO_DATA: flag(true),
  ADMIN_EMAIL: v.optional(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email('must be an email address'))),
  ADMIN_PASSWORD: v.optional(v.pipe(v.string(), v.minLength(8, 'must be at least 8 characters'))),
  LOG_LEVEL: v.optional(
    v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'must be one of fatal, error, warn, info, debug, trace, silent'),
    'info',
  ),
  SMTP_URL: v.optional(v.pipe(v.string(), v.regex(/^smtps?:\/\/[^\s]+$/, 'must look like smtp://user:password@mail.example.org:587 or smtps://...'))),
  SMTP_INSECURE: flag(false),
  SMTP_FROM: v.optional(v.pipe(v.string(), v.minLength(3)), 'Coach-Portal <no-reply@localhost>'),
  DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\/./, 'must be a PostgreSQL URL like postgres://user:password@db:5432/coach'))),
  PUBLIC_URL: v.optional(v.pipe(v.string(), v.url('must be a URL like https://coach.example.org'))),
  // Longer than the gateway keeps an idle pooled connection (the gateway passes its own value plus a margin).
  UPSTREAM_KEEP_ALIVE_TIMEOUT_MS: integer(10_000, 1000, 600_000),
  // A week idle and a year in all are far beyond any sensible setting; the limits catch typos (minutes for hours).
  SESSION_IDLE_MINUTES: integer(30, 1, 7 * 24 * 60),
  SESSION_MAX_HOURS: integer(12, 1, 365 * 24),
  RATE_LIMIT_WINDOW_SECONDS: integer(300, 1, 86400),
  RATE_LIMIT_PER_IP: integer(100, 1, 1_000_000),
  RATE_LIMIT_PER_ACCOUNT: integer(10, 1, 1_000_000),
  RATE_LIMIT_ACCOUNT_CEILING: integer(100, 1, 1_000_000),
  RATE_LIMIT_PATIENTS_PER_COACH: integer(30, 1, 1_000_000),
});

export interface UpstreamConfig {
  port: number;
  host: string;
  dataDir: string;
  demoData: boolean;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  logLevel: string;
  smtpUrl: string | undefined;
  /** SMTP_INSECURE=true: smtp:// may go without STARTTLS (a local relay). */
  smtpInsecure: boolean;
  mailFrom: string;
  /** Origin of mailed links; unset, main.ts uses http://localhost:<port> and says so. */
  publicUrl: string | undefined;
  keepAliveTimeoutMs: number;
  /** PostgreSQL instead of SQLite in DATA_DIR (the outbox stays in DATA_DIR). */
  databaseUrl: string | undefined;
  /** SESSION_IDLE_MINUTES, SESSION_MAX_HOURS. */
  session: { idleMinutes: number; maxHours: number };
  rateLimits: { windowSeconds: number; perIp: number; perAccount: number; perAccountCeiling: number; patientsPerCoach: number };
}

/** Reads the environment once; a wrong value throws one line that names the variable and the fix. */
export function loadConfig(env: Record<string, string | undefined>): UpstreamConfig {
  const picked = Object.fromEntries(Object.keys(EnvSchema.entries).map((key) => [key, env[key] === '' ? undefined : env[key]]));
  const result = v.safeParse(EnvSchema, picked);
  if (!result.success) {
    const issue = result.issues[0];
    throw new Error(`Invalid environment: ${v.getDotPath(issue)} ${issue.message}`);
  }
  const e = result.output;
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    throw new Error('Invalid environment: set both ADMIN_EMAIL and ADMIN_PASSWORD, or neither');
  }
  return {
    port: e.UPSTREAM_PORT,
    host: e.UPSTREAM_HOST,
    dataDir: e.DATA_DIR === ':memory:' ? ':memory:' : path.resolve(e.DATA_DIR),
    demoData: e.DEMO_DATA,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    smtpUrl: e.SMTP_URL,
    smtpInsecure: e.SMTP_INSECURE,
    mailFrom: e.SMTP_FROM,
    publicUrl: e.PUBLIC_URL,
    keepAliveTimeoutMs: e.UPSTREAM_KEEP_ALIVE_TIMEOUT_MS,
    databaseUrl: e.DATABASE_URL,
    session: { idleMinutes: e.SESSION_IDLE_MINUTES, maxHours: e.SESSION_MAX_HOURS },
    rateLimits: {
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      perIp: e.RATE_LIMIT_PER_IP,
      perAccount: e.RATE_LIMIT_PER_ACCOUNT,
      perAccountCeiling: e.RATE_LIMIT_ACCOUNT_CEILING,
      patientsPerCoach: e.RATE_LIMIT_PATIENTS_PER_COACH,
    },
  };
}
