import { fileURLToPath } from 'node:url';
import express from 'express';
import type { RequestHandler } from 'express';
import cookieParser from 'cookie-parser';
import type { Logger } from 'pino';
import { apiLane, type Gateway } from './api-lane.ts';
import type { Config } from './config.ts';
import { draftKeyRoute } from './draft-key.ts';
import { errorHandler, notFound } from './errors.ts';
import { healthRoutes } from './health.ts';
import { createLogger } from './shared/logger.ts';
import { isApiOriginTarget } from './middleware/api-path.ts';
import { limitApiBodies } from './middleware/body-limit.ts';
import { checkHost, hostAllowList } from './middleware/host-check.ts';
import { apiProxy } from './middleware/proxy.ts';
import { compileTranslations } from './mapping/calls.ts';
import { checkMethod, checkRequestLine } from './middleware/request-line.ts';
import { requestLog } from './shared/request-log.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { redirectUnsupportedBrowsers } from './middleware/browser-support.ts';
import { clientFiles } from './middleware/static.ts';
import { createXsrf } from './middleware/xsrf.ts';

export const DEFAULT_PUBLIC_DIR = fileURLToPath(new URL('../dist/public/', import.meta.url));

export interface AppOptions {
  logger?: Logger;
  /** The built client (default dist/public). */
  publicDir?: string;
  /** Reports unexpected errors (Sentry when configured). */
  report?: (error: unknown) => void;
  /** True once shutdown began: answers then close their connection instead of keeping it alive. */
  isClosing?: () => boolean;
}

/**
 * The gateway as a value: supertest imports it, only server/index.ts listens. /v2 calls take the lane
 * (api-lane.ts), everything else Express; both run the same middleware.
 */
export function createApp(config: Config, options: AppOptions = {}): Gateway {
  if (!config.upstreamUrl) throw new Error('createApp needs config.upstreamUrl (server/index.ts fills it in for the built-in upstream)');
  const logger = options.logger ?? createLogger({ service: 'gateway', level: config.logLevel });
  const xsrf = createXsrf(config.xsrfSecret);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);

  const front: RequestHandler[] = [
    requestLog(logger),
    securityHeaders(config.sentryDsn),
    (_req, res, next) => {
      if (options.isClosing?.()) res.setHeader('Connection', 'close');
      next();
    },
    // Before anything that acts on the request: only HTTP/1.x with a plain path, only for our own hosts, only
    // methods something here answers.
    checkRequestLine,
    checkHost(hostAllowList(config), app.get('trust proxy fn')),
    checkMethod,
  ];
  const api: RequestHandler[] = [
    cookieParser(),
    limitApiBodies,
    xsrf.protect,
    apiProxy({
      upstreamUrl: config.upstreamUrl,
      timeoutMs: config.proxyTimeoutMs,
      idleTimeoutMs: config.upstreamIdleTimeoutMs,
      logger,
      report: options.report,
      translations: config.mapping && compileTranslations(config.mapping),
    }),
  ];
  app.use(front);
  // Mounted on their own paths: every other request passes them without entering their routers.
  app.get(['/healthz', '/readyz'], healthRoutes(config.upstreamUrl));
  app.get('/session/draft-key', draftKeyRoute({ upstreamUrl: config.upstreamUrl, secret: config.xsrfSecret, timeoutMs: config.proxyTimeoutMs }));
  // Pages need the cookies too (the XSRF pair is issued with them); the rest acts on /v2 only.
  app.use(api);
  const client = clientFiles({
    publicDir: options.publicDir ?? DEFAULT_PUBLIC_DIR,
    appTitle: config.appTitle,
    sentryDsn: config.sentryDsn,
    sessionIdleMinutes: config.session.idleMinutes,
    issueXsrf: xsrf.issue,
    warn: (message) => logger.warn(message),
  });
  app.use(client.files);
  // Internet Explorer and old Edge get the message page instead of a page they cannot run.
  app.use(redirectUnsupportedBrowsers);
  app.use(client.pages);
  app.use((_req, _res, next) => next(notFound()));
  const handleError = errorHandler(options.report ?? (() => {}));
  app.use(handleError);
  const lane = apiLane(app, [...front, ...api], handleError);
  return (req, res) => (isApiOriginTarget(req.url) ? lane(req, res) : app(req, res));
}
