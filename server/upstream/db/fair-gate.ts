import { queryTimedOut, requestCancelled, type RequestScope } from './request-scope.ts';

/**
 * Database slots per coach: one coach's requests may hold at most `perKey` at a time, the rest wait their turn,
 * so ten parallel heavy filters of one coach leave slots for everyone else's GET /auth/me. A request counts once
 * however many connections it holds (a read inside its own transaction never waits on itself). Requests
 * before sign-in (no key) pass straight through: a token check is one indexed read.
 */
export class FairGate {
  readonly #perKey: number;
  readonly #waitLimitMs: () => number;
  readonly #active = new Map<string, number>();
  readonly #waiting = new Map<string, (() => void)[]>();

  constructor(perKey: number, waitLimitMs: () => number) {
    this.#perKey = Math.max(1, perKey);
    this.#waitLimitMs = waitLimitMs;
  }

  /** Waits for a slot of the scope's coach; the function returned gives it back (once). */
  async enter(scope: RequestScope | undefined): Promise<() => void> {
    const key = scope?.key;
    if (!scope || !key) return () => {};
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      if (--scope.holding === 0) this.#leave(key);
    };
    if (scope.holding++ > 0) return leave;
    if ((this.#active.get(key) ?? 0) < this.#perKey) {
      this.#active.set(key, (this.#active.get(key) ?? 0) + 1);
      return leave;
    }
    try {
      // The slot is handed over by #leave(), still counted as active.
      await this.#wait(key, scope.signal);
    } catch (error) {
      scope.holding--;
      throw error;
    }
    return leave;
  }

  #leave(key: string): void {
    const queue = this.#waiting.get(key);
    const next = queue?.shift();
    if (queue?.length === 0) this.#waiting.delete(key);
    if (next) return next();
    const left = (this.#active.get(key) ?? 1) - 1;
    if (left === 0) this.#active.delete(key);
    else this.#active.set(key, left);
  }

  #wait(key: string, signal: AbortSignal): Promise<void> {
    const limit = this.#waitLimitMs();
    return new Promise((resolve, reject) => {
      const queue = this.#waiting.get(key) ?? [];
      this.#waiting.set(key, queue);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', cancel);
      };
      const turn = () => {
        done();
        resolve();
      };
      const drop = (error: Error) => {
        done();
        const at = queue.indexOf(turn);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0 && this.#waiting.get(key) === queue) this.#waiting.delete(key);
        reject(error);
      };
      const cancel = () => drop(requestCancelled());
      const timer = setTimeout(() => drop(queryTimedOut(limit)), limit);
      signal.addEventListener('abort', cancel, { once: true });
      queue.push(turn);
    });
  }
}
