import type { RequestHandler, Request } from 'express';
import type { Clock } from '../lib/clock.ts';
import { tooMany } from './errors.ts';

export interface RateLimitSettings {
  /** Length of one counting window in seconds. */
  windowSeconds: number;
  /** Requests per window from one IP address to one limited call. */
  perIp: number;
  /** Attempts per window against one account (by email, or by token for set-password). */
  perAccount: number;
}
export const defaultRateLimits: RateLimitSettings = { windowSeconds: 300, perIp: 100, perAccount: 10 };

/**
 * Fixed-window counters in memory. Defends login, forgot-password and set-password against password
 * guessing (per account, from many addresses) and mail flooding (per IP). One process, so memory suffices.
 */
export class RateLimiter {
  readonly settings: RateLimitSettings;
  readonly #clock: Clock;
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  constructor(settings: RateLimitSettings, clock: Clock) {
    this.settings = settings;
    this.#clock = clock;
  }
  #entry(key: string) {
    const now = this.#clock.now().getTime();
    let entry = this.#windows.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.#windows.size > 50_000) this.#sweep(now);
      entry = { count: 0, resetAt: now + this.settings.windowSeconds * 1000 };
      this.#windows.set(key, entry);
    }
    return { entry, now };
  }
  #sweep(now: number) {
    for (const [key, entry] of this.#windows) if (entry.resetAt <= now) this.#windows.delete(key);
  }
  /** Throws 429 (with Retry-After) when the key has used up its window. */
  check(key: string, max: number): void {
    const { entry, now } = this.#entry(key);
    if (entry.count >= max) throw tooMany((entry.resetAt - now) / 1000);
  }
  count(key: string): void {
    this.#entry(key).entry.count++;
  }
  /** check + count in one step. */
  hit(key: string, max: number): void {
    this.check(key, max);
    this.count(key);
  }
  reset(): void {
    this.#windows.clear();
  }
}

export const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** Per-IP limit for one call; the per-account part is counted inside the route, which knows the account. */
export function limitPerIp(limiter: RateLimiter, name: string): RequestHandler {
  return (req, _res, next) => {
    limiter.hit(`${name}:ip:${clientIp(req)}`, limiter.settings.perIp);
    next();
  };
}
