import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooMany } from './errors.ts';

export interface RateLimitSettings {
  /** Length of one counting window in seconds. */
  windowSeconds: number;
  /** Requests per window from one IP address to one limited call. */
  perIp: number;
  /** Password attempts per window against one account from one address (and other per-account limits). */
  perAccount: number;
  /** Password attempts per window against one account from addresses it has never signed in from. */
  perAccountCeiling: number;
  /** Patients (trial accesses included) one coach may create per window. */
  patientsPerCoach: number;
}

/**
 * How long an address from which an account signed in stays known to it (exempt from the ceiling): two weeks,
 * a login token's default lifetime. (The memory store expires keys with setTimeout, which cannot wait longer
 * than 24.8 days.)
 */
const KNOWN_ADDRESS_SECONDS = 14 * 24 * 3600;

/**
 * Every limited thing, by name:
 * - ip: requests to one limited call (login, forgot-password, set-password) from one address;
 * - password: password checks (login, update-password) of one account from one address. Counted before the
 *   check, so parallel guesses cannot all get through; a right password gives its point back;
 * - password-ceiling: password checks of one account from addresses it has not signed in from: slows guessing
 *   spread over many addresses, and cannot lock the owner out, whose own addresses do not count here;
 * - forgot-password: reset mails for one address; set-password: uses of one reset link's account;
 * - connect: every POST /coaches/connect of one coach, successful or not;
 * - patients: patients one coach creates (POST /patients, createPatientForMedian, create-trial-access): a stolen
 *   session cannot fill the instance with made-up patients and access codes.
 */
export type LimitName = 'ip' | 'password' | 'password-ceiling' | 'forgot-password' | 'set-password' | 'connect' | 'patients';

/**
 * Rate limits from rate-limiter-flexible. Counters live in memory (SQLite: one upstream process), or in the
 * PostgreSQL table rate_limits when a pool is given, so every upstream process on that database counts against
 * the same limit; if the database cannot answer, a memory limiter stands in (insuranceLimiter). Keys are
 * hashed: the table holds no address or email.
 */
export class RateLimiter {
  readonly settings: RateLimitSettings;
  readonly #limiters: Record<LimitName, RateLimiterAbstract>;
  readonly #known: RateLimiterAbstract;

  constructor(settings: RateLimitSettings, pool?: pg.Pool) {
    this.settings = settings;
    const make = (name: string, points: number, duration: number): RateLimiterAbstract => {
      const memory = new RateLimiterMemory({ keyPrefix: name, points, duration });
      if (!pool) return memory;
      return new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        keyPrefix: name,
        points,
        duration,
        // Expired rows are deleted by the limiter itself every few minutes.
        clearExpiredByTimeout: true,
        insuranceLimiter: memory,
      });
    };
    const { windowSeconds: window, perIp, perAccount, perAccountCeiling, patientsPerCoach } = settings;
    this.#limiters = {
      ip: make('ip', perIp, window),
      password: make('password', perAccount, window),
      'password-ceiling': make('password-ceiling', perAccountCeiling, window),
      'forgot-password': make('forgot-password', perAccount, window),
      'set-password': make('set-password', perAccount, window),
      connect: make('connect', perAccount, window),
      patients: make('patients', patientsPerCoach, window),
    };
    this.#known = make('known-address', 1, KNOWN_ADDRESS_SECONDS);
  }

  /** Uses one point of `name` for `key`, atomically; 429 with Retry-After when the window is used up. */
  async consume(name: LimitName, key: string): Promise<void> {
    try {
      await this.#limiters[name].consume(hashKey(key));
    } catch (result) {
      if (result instanceof RateLimiterRes) throw tooMany(result.msBeforeNext / 1000);
      throw result;
    }
  }

  async #reward(name: LimitName, key: string): Promise<void> {
    await this.#limiters[name].reward(hashKey(key));
  }

  /**
   * Call before checking a password of `account` (an email) from `address`: takes the attempt's points or
   * answers 429, so at most perAccount checks per window and address ever run, however many arrive at once.
   * Call succeeded() after a right password: the attempt gives its points back and the address becomes known.
   */
  async passwordAttempt(account: string, address: string): Promise<{ succeeded(): Promise<void> }> {
    const pair = `${account}\u0000${address}`;
    await this.consume('password', pair);
    const known = (await this.#known.get(hashKey(pair)))?.consumedPoints ?? 0;
    const counted = known === 0;
    if (counted) await this.consume('password-ceiling', account);
    return {
      succeeded: async () => {
        await this.#reward('password', pair);
        if (counted) await this.#reward('password-ceiling', account);
        await this.#known.set(hashKey(pair), 1, KNOWN_ADDRESS_SECONDS);
      },
    };
  }
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('base64url');

export const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** Per-IP limit for one call; the per-account part is counted inside the route, which knows the account. */
export function limitPerIp(limiter: RateLimiter, name: string): RequestHandler {
  return async (req, _res, next) => {
    await limiter.consume('ip', `${name}\u0000${clientIp(req)}`);
    next();
  };
}
