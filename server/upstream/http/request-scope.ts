import type { RequestHandler } from 'express';
import { runInScope } from '../db/request-scope.ts';

/**
 * Every request runs in a scope the database layer reads (db/request-scope.ts): when its client goes away before
 * the answer, the scope's signal aborts, the running query is stopped and nothing more is written.
 */
export const requestScope: RequestHandler = (_req, res, next) => {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  runInScope({ signal: controller.signal, holding: 0 }, next);
};
