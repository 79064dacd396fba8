import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { notFound } from './errors.ts';

/** The gateway as node:http calls it: every request, the lane's and Express's. */
export type Gateway = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * /v2 calls are nearly all of the traffic, and each went through Express's router: a dozen layers, each matched
 * against the path, each step a closure and a try. The lane calls the same middleware in the same order (app.ts
 * builds both from one list), one after the other, with Express's request and response objects as the router would
 * hand them over: the same answers for about a twentieth less of the gateway's CPU on a small GET. Whatever the lane does not
 * take (pages, assets, probes, an absolute-form request line) goes through Express as before, which has the same
 * middleware mounted.
 */
export function apiLane(app: Express, steps: readonly RequestHandler[], handleError: ErrorRequestHandler): Gateway {
  return (incoming, outgoing) => {
    // What Express's app.handle does before it hands the request to its router (express/lib/application.js).
    const req = incoming as Request;
    const res = outgoing as Response;
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    res.locals ??= Object.create(null);
    // After the error handler passed (the answer had started): the connection is cut, as Express's final handler does.
    const cut: NextFunction = () => void res.destroy();
    const fail = (error: unknown) => handleError(error, req, res, cut);
    let index = 0;
    const next: NextFunction = (error?: unknown) => {
      if (error) return fail(error);
      const step = steps[index++];
      // No step answered: as Express's own 404 after its last route.
      if (step === undefined) return fail(notFound());
      try {
        void step(req, res, next);
      } catch (thrown) {
        fail(thrown);
      }
    };
    next();
  };
}
