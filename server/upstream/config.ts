import * as v from 'valibot';
import path from 'node:path';
import { assertBothOrNeither, ConfigError, emailAddress, flag, logLevel, operatorPassword, readEnv, smtpUrl, wholeNumber } from '../shared/config-fields.ts';

/*
 * The built-in upstream's configuration: environment -> UpstreamConfig, read once at start-up by main.ts with the
 * field helpers the gateway uses too (server/shared/config-fields.ts). The defaults here are the upstream's
 * defaults everywhere (createUpstreamApp takes them from DEFAULT_CONFIG), so they are written down once.
 */

const EnvSchema = v.object({
  UPSTREAM_PORT: wholeNumber('UPSTREAM_PORT', 0, 65535, 3001),
  UPSTREAM_HOST: v.optional(v.string(), '127.0.0.1'),
  DATA_DIR: v.optional(v.string(), './data'),
  DEMO_DATA: flag('DEMO_DATA', true),
  ADMIN_EMAIL: v.optional(emailAddress('ADMIN_EMAIL')),
  ADMIN_PASSWORD: v.optional(operatorPassword('ADMIN_PASSWORD')),
  LOG_LEVEL: logLevel('LOG_LEVEL'),
  SMTP_URL: v.optional(smtpUrl('SMTP_URL')),
  SMTP_INSECURE: flag('SMTP_INSECURE', false),
  SMTP_FROM: v.optional(
    v.pipe(v.string(), v.minLength(3, 'SMTP_FROM must be a sender like Coach-Portal <no-reply@example.org>')),
    'Coach-Portal <no-reply@localhost>',
  ),
  DATABASE_URL: v.optional(
    v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\/./, 'DATABASE_URL must be a PostgreSQL URL like postgres://user:password@db:5432/coach')),
  ),
  PUBLIC_URL: v.optional(v.pipe(v.string(), v.url('PUBLIC_URL must be a URL like https://coach.example.org'))),
  // Longer than the gateway keeps an idle pooled connection (the gateway passes its own value plus a margin).
  UPSTREAM_KEEP_ALIVE_TIMEOUT_MS: wholeNumber('UPSTREAM_KEEP_ALIVE_TIMEOUT_MS', 1000, 600_000, 10_000),
  // A week idle and a year in all are far beyond any sensible setting; the limits catch typos (minutes for hours).
  SESSION_IDLE_MINUTES: wholeNumber('SESSION_IDLE_MINUTES', 1, 7 * 24 * 60, 30),
  SESSION_MAX_HOURS: wholeNumber('SESSION_MAX_HOURS', 1, 365 * 24, 12),
  RATE_LIMIT_WINDOW_SECONDS: wholeNumber('RATE_LIMIT_WINDOW_SECONDS', 1, 86400, 300),
  RATE_LIMIT_PER_IP: wholeNumber('RATE_LIMIT_PER_IP', 1, 1_000_000, 100),
  RATE_LIMIT_PER_ACCOUNT: wholeNumber('RATE_LIMIT_PER_ACCOUNT', 1, 1_000_000, 10),
  RATE_LIMIT_ACCOUNT_CEILING: wholeNumber('RATE_LIMIT_ACCOUNT_CEILING', 1, 1_000_000, 100),
  RATE_LIMIT_PATIENTS_PER_COACH: wholeNumber('RATE_LIMIT_PATIENTS_PER_COACH', 1, 1_000_000, 30),
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
  let e: v.InferOutput<typeof EnvSchema>;
  try {
    e = readEnv(EnvSchema, env);
    assertBothOrNeither(e, 'ADMIN_EMAIL', 'ADMIN_PASSWORD');
  } catch (error) {
    if (error instanceof ConfigError) throw new Error(`Invalid environment: ${error.message}`);
    throw error;
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

/** Every setting at its default: what createUpstreamApp uses for whatever its options leave out. */
export const DEFAULT_CONFIG: UpstreamConfig = loadConfig({});
