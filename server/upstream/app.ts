import { requestScope } from './http/request-scope.ts';
import path from 'node:path';
import os from 'node:os';
import express, { type Express } from 'express';
import type pg from 'pg';
import type { ConnectionOptions } from 'node:tls';
import type { Logger } from 'pino';
import type { Db } from './db/index.ts';
import type { Upstream } from './context.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { RecentUses, type SessionLimits } from './lib/session-use.ts';
import { DEFAULT_CONFIG } from './config.ts';
import { createLogger } from '../shared/logger.ts';
import { requestLog } from '../shared/request-log.ts';
import { RateLimiter, type RateLimitSettings } from './http/rate-limit.ts';
import { errorHandler, notFoundHandler } from './http/error-handler.ts';
import { refuseOddText, verifyUtf8 } from './http/input-guard.ts';
import { routers } from './routes.ts';

export interface UpstreamOptions {
  db: Db;
  logger?: Logger;
  clock?: Clock;
  /** Data folder; the outbox is DATA_DIR/outbox unless outboxDir is given. */
  dataDir?: string;
  outboxDir?: string;
  /** Origin of mailed links (PUBLIC_URL). main.ts always passes one; the default serves tests. */
  publicUrl?: string;
  /** smtp://user:pass@host:587 or smtps://...; mails are then sent instead of written to the outbox. */
  smtpUrl?: string;
  /** Sender of mails, e.g. "Nachsorge-Portal <no-reply@example.org>". */
  mailFrom?: string;
  /** SMTP_INSECURE: allow smtp:// without STARTTLS (a local relay). */
  smtpInsecure?: boolean;
  /** Extra TLS options for the SMTP connection (a private CA). */
  smtpTls?: ConnectionOptions;
  /** SESSION_IDLE_MINUTES and SESSION_MAX_HOURS; 30 minutes and 12 hours unless given. */
  session?: Partial<SessionLimits>;
  rateLimits?: Partial<RateLimitSettings>;
  /** PostgreSQL pool (Storage.pool): rate limits are then counted in the database, shared by every process. */
  pool?: pg.Pool;
  /** Log every request (off in tests unless a logger destination is given). */
  logRequests?: boolean;
}

export const DEFAULT_PUBLIC_URL = 'http://localhost:8080';

/**
 * The built-in /v2 upstream as a value: main.ts listens, tests hand it to supertest. Middleware in
 * order: request log, request scope (cancelled when the client goes), JSON body (1 MB, UTF-8), odd-text guard, every router of routes.ts, 404, the one error handler.
 */
export function createUpstreamApp(options: UpstreamOptions): Express & { upstream: Upstream } {
  const logger = options.logger ?? createLogger({ service: 'upstream', level: 'silent' });
  const clock = options.clock ?? systemClock;
  const dataDir = options.dataDir ?? path.join(os.tmpdir(), 'upstream-data');
  const session = { ...DEFAULT_CONFIG.session, ...options.session };
  const ctx: Upstream = {
    db: options.db,
    logger,
    clock,
    dataDir,
    outboxDir: options.outboxDir ?? path.join(dataDir, 'outbox'),
    publicUrl: options.publicUrl ?? DEFAULT_PUBLIC_URL,
    smtp: options.smtpUrl
      ? { url: options.smtpUrl, from: options.mailFrom ?? DEFAULT_CONFIG.mailFrom, insecure: options.smtpInsecure ?? false, tls: options.smtpTls }
      : undefined,
    session,
    recentUses: new RecentUses(session),
    rateLimiter: new RateLimiter({ ...DEFAULT_CONFIG.rateLimits, ...options.rateLimits }, options.pool),
  };

  const app = express();
  app.disable('x-powered-by');
  // Only the gateway on this machine talks to us; trust its X-Forwarded-For so limits apply per client.
  app.set('trust proxy', 'loopback');
  app.set('etag', false);
  if (options.logRequests ?? true) app.use(requestLog(logger));
  app.use(requestScope);
  app.use(express.json({ limit: '1mb', type: () => true, verify: verifyUtf8 }));
  // NUL characters, lone surrogates and bytes that are not UTF-8: 400 before any route can store them.
  app.use(refuseOddText);
  // Answers hold health data: no cache may keep them.
  app.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  const v2 = express.Router();
  for (const router of routers) v2.use(router(ctx));
  app.use('/v2', v2);
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return Object.assign(app, { upstream: ctx });
}
