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

const guarded = new WeakMap<object, Set<string>>();
/** Guarded calls in progress per object: only the outermost one catches (write calls writeHead internally, and a
 * writeHead that failed must abort the write around it, not let it go on as if the head had gone out). */
const depth = new WeakMap<object, number>();

export function guardCalls<T extends object>(target: T, methods: (keyof T & string)[], options: GuardOptions): void {
  const done = guarded.get(target) ?? new Set<string>();
  guarded.set(target, done);
  for (const method of methods) {
    if (done.has(method)) continue;
    done.add(method);
    const original = target[method] as unknown as (...args: unknown[]) => unknown;
    const wrapped = function (this: T, ...args: unknown[]): unknown {
      const failed = method === 'write' ? false : this;
      if (options.before && !options.before(method, args)) return failed;
      const level = depth.get(this) ?? 0;
      let failure: { error: unknown } | undefined;
      depth.set(this, level + 1);
      try {
        return Reflect.apply(original, this, args);
      } catch (error) {
        if (level > 0) throw error;
        failure = { error };
      } finally {
        depth.set(this, level);
      }
      // Outside the try: onThrow may call guarded methods again (to answer 502), as an outermost call.
      options.onThrow(failure.error);
      return failed;
    };
    Object.defineProperty(target, method, { value: wrapped, writable: true, configurable: true });
  }
}
