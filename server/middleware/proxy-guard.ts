/**
 * Wraps methods of one object (a ClientRequest or ServerResponse of one proxied request) so that what they
 * throw is handed to onThrow instead of propagating. node:http throws from write/end/writeHead for invalid
 * header combinations, and those calls run inside stream and socket callbacks (a pipe's 'data' or 'end'),
 * where an exception is uncaught and ends the process, and with it every other request.
 *
 * `before` may look at a call first and veto it. A vetoed or failed call returns what the method returns when
 * it cannot go on: false for write (as on backpressure), the object itself for writeHead and end (chaining).
 */
export interface GuardOptions {
  onThrow: (error: unknown) => void;
  before?: (method: string, args: unknown[]) => boolean;
}

/** The methods already wrapped on an object, and how many guarded calls on it are in progress: only the outermost
 * one catches (write calls writeHead internally, and a writeHead that failed must abort the write around it, not let
 * it go on as if the head had gone out). Kept on the object itself: WeakMap entries written on every call keep the
 * garbage collector busy with its ephemeron tables. */
const GUARDED = Symbol('guarded methods');
const DEPTH = Symbol('guarded calls in progress');
type Guardable = { [GUARDED]?: Set<string>; [DEPTH]?: number };

export function guardCalls<T extends object>(target: T, methods: (keyof T & string)[], options: GuardOptions): void {
  const marked = target as T & Guardable;
  marked[GUARDED] ??= new Set<string>();
  const done = marked[GUARDED];
  for (const method of methods) {
    if (done.has(method)) continue;
    done.add(method);
    const original = target[method] as unknown as (...args: unknown[]) => unknown;
    const wrapped = function (this: T & Guardable, ...args: unknown[]): unknown {
      const failed = method === 'write' ? false : this;
      if (options.before && !options.before(method, args)) return failed;
      const level = this[DEPTH] ?? 0;
      let failure: { error: unknown } | undefined;
      this[DEPTH] = level + 1;
      try {
        return Reflect.apply(original, this, args);
      } catch (error) {
        if (level > 0) throw error;
        failure = { error };
      } finally {
        this[DEPTH] = level;
      }
      // Outside the try: onThrow may call guarded methods again (to answer 502), as an outermost call.
      options.onThrow(failure.error);
      return failed;
    };
    Object.defineProperty(target, method, { value: wrapped, writable: true, configurable: true });
  }
}
