import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import loopback from 'loopback';
import { defineAuth, registerRoles } from './auth.ts';
import { defineCoachCalls } from './coaches.ts';
import { defineNews, defineSettings, defineStatistics } from './data.ts';
import { defineModels } from './models.ts';
import { definePatientCalls } from './patients.ts';
import { seed } from './seed.ts';
import type { Lb3, Lb3Options } from './state.ts';
import { defineSync } from './sync.ts';

export { snapshot, type Lb3, type Lb3Options, type Mail } from './state.ts';

/*
 * A second, independent test upstream: a /v2 API built on the real `loopback` 3 package the way its documentation
 * builds one (loopback(), a memory data source, models created in code, the built-in User and AccessToken, ACLs,
 * loopback.rest()), written from docs/product.md#calls, not from the built-in upstream. So LoopBack itself decides
 * the filter handling, the error bodies ({ error: { statusCode, name, message, code } }), the numeric ids, PUT
 * replacing a whole record (a Coach without its password is a 422) and the missing X-Total-Count. Its field names
 * are its own; mapping.json maps them for the gateway. Mails go to an in-memory outbox (GET /__test__/outbox).
 *
 * What an operator of a LoopBack 3 API needs to set for the portal (README, "Using your own API"):
 *   - loopback.token({ bearerTokenBase64Encoded: false }): LoopBack 3.28 base64-decodes a Bearer token by default,
 *     but the client sends the login answer's id as it came;
 *   - no currentUserLiteral ('me'): it would turn /auth/me into /auth/{userId};
 *   - remoting.errorHandler { debug: false }: error answers without stack traces (strong-error-handler);
 *   - restrictResetPasswordTokenScope on the User model: a mailed reset token may only set the password.
 */

/** Its field mapping for the gateway (UPSTREAM_MAPPING). */
export const LB3_MAPPING = fileURLToPath(new URL('./mapping.json', import.meta.url));

export function createLb3App(options: Lb3Options = {}) {
  // A registry of its own, so that tests can run several instances in one process.
  const app = loopback({ localRegistry: true, loadBuiltinModels: true });
  app.set('remoting', { errorHandler: { debug: false, log: false }, rest: { normalizeHttpPath: false } });
  app.dataSource('db', { connector: 'memory' });
  const lb: Lb3 = { models: {}, outbox: [], requests: [], now: options.now ?? (() => new Date()) };
  Object.assign(lb.models, defineModels(app));
  app.enableAuth({ dataSource: 'db' });
  Object.assign(lb.models, app.models);
  registerRoles(lb);
  defineAuth(app, lb);
  defineCoachCalls(lb);
  definePatientCalls(lb);
  defineSync(lb);
  defineNews(lb);
  defineStatistics(app, lb);
  defineSettings(app, lb);

  app.get('/__test__/outbox', (_req: unknown, res: any) => res.json(lb.outbox));
  app.use('/v2', (req: any, res: any, next: () => void) => {
    const path = req.path;
    lb.requests.push(`${req.method} ${path}`);
    const { rewrite } = options;
    if (rewrite) {
      const json = res.json.bind(res);
      res.json = (body: unknown) => json(rewrite(path, JSON.parse(JSON.stringify(body ?? null))));
    }
    next();
  });
  app.use(loopback.token({ model: lb.models.CoachToken, bearerTokenBase64Encoded: false }));
  app.use('/v2', loopback.rest());
  app.use(loopback.urlNotFound());
  const ready = seed(lb);
  return { app, lb, ready };
}

/** Starts it on a free loopback port, with its demo data. */
export async function startLb3Upstream(options: Lb3Options = {}) {
  const { app, lb, ready } = createLb3App(options);
  await ready;
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
