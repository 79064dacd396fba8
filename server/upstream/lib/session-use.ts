/**
 * How long a login token lives (docs/contract.md#sessions): it ends after SESSION_IDLE_MINUTES without a request
 * and SESSION_MAX_HOURS after sign-in, whatever the activity. An unattended screen on a shared clinic PC, or a
 * token copied from it, stops reading patient data.
 */
export interface SessionLimits {
  idleMinutes: number;
  maxHours: number;
}

/**
 * A token's stored last use is rewritten at most this often: a screen makes several requests per click, and a
 * write for each would double the database load of reading. The exact last use is kept in memory meanwhile.
 */
export const LAST_USE_WRITE_EVERY_MS = 60_000;

export type SessionEnd = 'SESSION_EXPIRED' | 'SESSION_IDLE';

export interface TokenTimes {
  createdAt: number;
  expiresAt: number;
  lastUsedAt: number;
}

/** Why a token may no longer be used at `now`, or undefined while it is live. */
export function sessionEnd(limits: SessionLimits, token: TokenTimes, now: number): SessionEnd | undefined {
  if (now >= token.expiresAt || now - token.createdAt >= limits.maxHours * 3_600_000) return 'SESSION_EXPIRED';
  if (now - token.lastUsedAt > limits.idleMinutes * 60_000) return 'SESSION_IDLE';
  return undefined;
}

/**
 * The last use of each token this process has seen since it last wrote it, so the idle limit counts from the
 * real last request even though the database hears of it only once a minute. Several upstream processes each
 * keep their own: there a session can idle out up to LAST_USE_WRITE_EVERY_MS early, never late.
 */
export class RecentUses {
  readonly #uses = new Map<string, number>();
  readonly #idleMs: number;
  #sweptAt = 0;

  constructor(limits: SessionLimits) {
    this.#idleMs = limits.idleMinutes * 60_000;
  }

  /** The later of the stored last use and the last one seen here. */
  lastUse(tokenHash: string, stored: number): number {
    return Math.max(stored, this.#uses.get(tokenHash) ?? 0);
  }

  /** Notes a use at `now`; true when the stored last use is old enough to be written again. */
  record(tokenHash: string, stored: number, now: number): boolean {
    this.#uses.set(tokenHash, now);
    this.#sweep(now);
    return now - stored >= LAST_USE_WRITE_EVERY_MS;
  }

  /** Forgets tokens idle for longer than the limit (they are refused whatever is remembered), once a minute. */
  #sweep(now: number): void {
    if (now - this.#sweptAt < LAST_USE_WRITE_EVERY_MS) return;
    this.#sweptAt = now;
    for (const [hash, at] of this.#uses) if (now - at > this.#idleMs) this.#uses.delete(hash);
  }
}
