import { AsyncLocalStorage } from 'node:async_hooks';
import { HttpError } from '../../shared/http-error.ts';

/**
 * What the database layer knows of the request a query runs for, without the repositories passing it along:
 * its signal (aborted when the client has gone, so the query stops and nothing is written) and, once signed in,
 * whose request it is (so one coach cannot take every database slot, see fair-gate.ts).
 */
export interface RequestScope {
  signal: AbortSignal;
  /** The signed-in coach; undefined before sign-in (token checks, login). */
  key?: string;
  /** Database slots this request holds right now (a transaction and a read inside it count once). */
  holding: number;
}

const storage = new AsyncLocalStorage<RequestScope>();

export const runInScope = <T>(scope: RequestScope, work: () => T): T => storage.run(scope, work);
export const currentScope = (): RequestScope | undefined => storage.getStore();

/** A query that ran over its time limit: the server's condition, not the request's fault, so 503. */
export const queryTimedOut = (limitMs: number) =>
  new HttpError(503, 'QUERY_TIMEOUT', `The database did not answer within ${limitMs} ms; try again or narrow the filter`, { headers: { 'Retry-After': '5' } });

/** The client went away before the answer: the query was stopped. Nobody reads this answer. */
export const requestCancelled = () => new HttpError(503, 'REQUEST_CANCELLED', 'The client closed the request before the answer');

/** Throws when the request this code runs for has been cancelled. */
export function throwIfCancelled(scope = currentScope()): void {
  if (scope?.signal.aborted) throw requestCancelled();
}
