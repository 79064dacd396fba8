import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { LbError, createLb3State, type Lb3Options } from './rest.ts';
import { seed } from './seed.ts';
import { peopleRoutes } from './routes-people.ts';
import { dataRoutes } from './routes-data.ts';

/*
 * A second, independent test upstream: a /v2 API as a LoopBack 3 application might serve it, written from
 * docs/product.md#calls and LoopBack 3 habits, not from the built-in upstream or its schemas:
 *   - numeric ids counted up per model; models store whatever properties a client sends;
 *   - the login answer is an AccessToken { id, ttl, created, userId, user } whose user has only id, email
 *     and the four flags of docs/product.md#entities; GET /auth/me answers that same minimal user;
 *   - list answers never carry X-Total-Count; { limit: 0 } answers every row (the memory connector);
 *   - create answers 200 with the stored instance, DELETE answers 200 { count };
 *   - errors are { "error": { "statusCode", "name", "message" } } (no code, no details list);
 *   - a request with an unknown or expired token gets 401 with an empty body.
 * Its data is its own (seed.ts). Mails go to an in-memory outbox, readable at GET /__test__/outbox.
 */

const PUBLIC = [
  /^\/auth\/login$/,
  /^\/auth\/forgot-password$/,
  /^\/app-settings\/asset\/[^/]+$/,
  /^\/app-settings\/version$/,
  /^\/coaches\/[^/]+\/verify-email$/,
];

export function createLb3App(options: Lb3Options = {}) {
  const lb = createLb3State(options);
  seed(lb);
  const app = express();
  app.use(express.json());

  app.get('/__test__/outbox', (_req, res) => {
    res.json(lb.outbox);
  });

  const api = express.Router();
  api.use((req, res, next) => {
    lb.requests.push(`${req.method} ${req.path}`);
    const { rewrite } = options;
    if (rewrite) {
      const json = res.json.bind(res);
      res.json = (body: unknown) => json(rewrite(req.path, body));
    }
    next();
  });
  // AccessToken check: a missing token is LoopBack's AUTHORIZATION_REQUIRED; an unknown or expired one is
  // answered 401 without a body, as some LoopBack setups do.
  api.use((req, res, next) => {
    const header = req.get('authorization') ?? '';
    const id = header.replace(/^Bearer\s+/i, '') || (typeof req.query.access_token === 'string' ? req.query.access_token : '');
    if (!id) {
      if (PUBLIC.some((pattern) => pattern.test(req.path))) return next();
      throw new LbError(401, 'Authorization Required');
    }
    const token = lb.tokens.get(id);
    if (!token || token.created + token.ttl * 1000 < lb.now().getTime()) {
      if (PUBLIC.some((pattern) => pattern.test(req.path))) return next();
      res.status(401).end();
      return;
    }
    const coach = lb.models.coaches.findById(token.userId);
    if (!coach) return void res.status(401).end();
    res.locals.coach = coach;
    res.locals.token = id;
    res.locals.tokenKind = token.kind;
    next();
  });
  api.use((req, res, next) => {
    // A reset token only sets the password.
    if (res.locals.tokenKind === 'reset' && req.path !== '/auth/me/set-password') return void res.status(401).end();
    next();
  });
  peopleRoutes(api, lb);
  dataRoutes(api, lb);
  api.use((req) => {
    throw new LbError(404, `Shared class has no method handling ${req.method} ${req.path}`);
  });
  app.use('/v2', api);
  app.use((error: Error & { statusCode?: number; status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    const statusCode = error.statusCode ?? error.status ?? 500;
    res.status(statusCode).json({ error: { statusCode, name: error.name || 'Error', message: error.message } });
  });
  return { app, lb };
}

/** Starts it on a free loopback port. */
export async function startLb3Upstream(options: Lb3Options = {}) {
  const { app, lb } = createLb3App(options);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    lb,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
