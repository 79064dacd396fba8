import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { createApp } from './app.ts';
import { METHODS } from './middleware/request-line.ts';
import { answerClientError, answerUnmetExpectation } from './client-error.ts';
import { type Config, ConfigError, configErrorLine, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { startSentry } from './sentry.ts';
import { BUILT_IN_UPSTREAM, startUpstream, upstreamEnv } from './upstream-process.ts';
import type { RunningUpstream } from './upstream-process.ts';

/** The only file that listens. Order: config, listen (requests wait), upstream, app; SIGTERM/SIGINT reverse it. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env, () => randomBytes(32).toString('hex'));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${configErrorLine(error)}\n`);
      process.exit(1);
    }
    throw error;
  }

  const logger = createLogger(config.logLevel);
  const reporter = await startSentry(config.sentryDsn, config.sentryEnvironment);
  if (!config.xsrfSecretFromEnv) {
    logger.warn('XSRF_SECRET is not set: using a random secret for this process (set it when running several replicas)');
  }

  let closing = false;
  let upstream: RunningUpstream | undefined;
  // Node checks the timeouts below only every connectionsCheckingInterval (default 30 s); 2 s keeps a slow-loris
  // connection from being held up to 30 s longer than the limit says.
  const server = createServer({ connectionsCheckingInterval: 2_000 });
  // Slow-loris limits: the full header block within 20 s, the full request within 2 min.
  server.headersTimeout = 20_000;
  server.requestTimeout = 120_000;
  server.keepAliveTimeout = 5_000;
  // Requests Node's parser refuses (bogus version, HTTP/2 preface, conflicting lengths, an over-long head) get the
  // JSON error format too, instead of Node's bare 400.
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerUnmetExpectation);
  // When each connection last finished an answer (and how many it is working on), for the shutdown below.
  const connections = new Map<Socket, { busy: number; idleSince: number }>();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { busy: 0, idleSince: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (req, res) => {
    const state = connections.get(req.socket);
    if (!state) return;
    state.busy++;
    res.once('close', () => {
      state.busy--;
      state.idleSince = Date.now();
    });
  });
  // CONNECT asks for a tunnel, which this server never offers; without a listener Node drops the socket with no
  // answer at all. A plain 405 tells clients and scanners the same thing in HTTP.
  server.on('connect', (_req, socket) => {
    const body = JSON.stringify({ error: { statusCode: 405, name: 'MethodNotAllowedError', code: 'METHOD_NOT_ALLOWED', message: 'CONNECT is not supported' } });
    socket.on('error', () => {});
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\nAllow: ${METHODS.join(', ')}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });

  // The port is bound first: without PUBLIC_URL, mailed links point at http://localhost:<the port>, and with
  // PORT=0 that port is known only now. Requests arriving before the app is ready wait for it.
  const early: [IncomingMessage, ServerResponse][] = [];
  const hold = (req: IncomingMessage, res: ServerResponse) => early.push([req, res]);
  server.on('request', hold);
  const cannotListen = (error: Error) => {
    logger.fatal({ err: error }, 'gateway could not listen');
    logger.flush(() => process.exit(1));
  };
  server.once('error', cannotListen);
  const port = await new Promise<number>((resolve) => {
    server.listen(config.port, config.host, () => resolve((server.address() as AddressInfo).port));
  });
  server.off('error', cannotListen);
  const publicUrl = config.publicUrl ?? `http://localhost:${port}`;
  if (!config.publicUrl) logger.warn({ publicUrl }, `PUBLIC_URL is not set: links in mails point to ${publicUrl}`);

  if (!config.upstreamUrl) {
    try {
      upstream = await startUpstream(BUILT_IN_UPSTREAM, upstreamEnv(config, process.env, publicUrl));
    } catch (error) {
      process.stderr.write(`Start-up error: ${(error as Error).message}\n`);
      process.exit(1);
    }
    logger.info({ upstream: upstream.url }, 'built-in upstream started');
    upstream.child.once('exit', (code, signal) => {
      if (closing) return;
      // Without its upstream the gateway only answers 502s; exiting lets the supervisor restart both.
      logger.fatal({ code, signal }, 'built-in upstream exited unexpectedly');
      logger.flush(() => process.exit(1));
    });
  }

  const app = createApp({ ...config, upstreamUrl: config.upstreamUrl ?? upstream!.url }, {
    logger,
    report: reporter.capture,
    isClosing: () => closing,
  });
  server.off('request', hold);
  server.on('request', app);
  for (const [req, res] of early.splice(0)) app(req, res);
  server.on('error', (error) => logger.error({ err: error }, 'gateway server error'));
  logger.info({ port, host: config.host ?? 'all interfaces', upstream: config.upstreamUrl ? 'external' : 'built-in' }, 'gateway listening');
  process.send?.({ type: 'listening', port });

  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
    // No new connections. Open keep-alive connections are not cut at once (http.Server.close() would do that):
    // a client may be sending its next request on one right now, and that request would die with ECONNRESET.
    // Instead every answer now carries Connection: close, and a connection that has been idle for 1 s is closed.
    NetServer.prototype.close.call(server);
    const idleSweep = setInterval(() => {
      const now = Date.now();
      for (const [socket, state] of connections) if (state.busy === 0 && now - state.idleSince >= 1000) socket.destroy();
    }, 100);
    const force = setTimeout(() => {
      logger.warn('grace period over: closing remaining connections');
      server.closeAllConnections();
    }, config.shutdownGraceMs);
    server.once('close', async () => {
      clearInterval(idleSweep);
      clearTimeout(force);
      await upstream?.stop(config.shutdownGraceMs);
      await reporter.close();
      logger.info('stopped');
      logger.flush();
      process.exitCode = 0;
      setImmediate(() => process.exit(0));
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
