import type { Logger } from 'pino';
import type { Db } from './db/index.ts';
import type { Clock } from './lib/clock.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import type { SmtpSettings } from './lib/mailer.ts';
import type { RecentUses, SessionLimits } from './lib/session-use.ts';

/**
 * Everything a route family needs, built once by createUpstreamApp and handed to every router factory.
 * Routers never read process.env or open files of their own outside dataDir.
 */
export interface Upstream {
  db: Db;
  logger: Logger;
  clock: Clock;
  /** Data folder (the outbox and assets live below it). */
  dataDir: string;
  /** Where mails are written as .eml files (DATA_DIR/outbox unless given). */
  outboxDir: string;
  /** Origin of every mailed link (PUBLIC_URL); never taken from a request. */
  publicUrl: string;
  /** Real mail delivery (SMTP_URL); without it mails go to the outbox only. */
  smtp: SmtpSettings | undefined;
  /** Idle and maximum lifetime of a login token (SESSION_IDLE_MINUTES, SESSION_MAX_HOURS). */
  session: SessionLimits;
  /** Last uses of login tokens not yet written to the database. */
  recentUses: RecentUses;
  rateLimiter: RateLimiter;
}
