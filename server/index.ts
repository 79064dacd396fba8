import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import { type Config, ConfigError, configErrorLine, loadConfig } from './config.ts';
import { closeGracefully, createGatewayServer, listenEarly } from './http-server.ts';
import { batchedStdout, createLogger } from './shared/logger.ts';
import { startSentry } from './sentry.ts';
import { BUILT_IN_UPSTREAM, type RunningUpstream, startUpstream, upstreamEnv } from './upstream-process.ts';

/** The configuration, or one line on stderr that says what to fix and exit code 1. */
function readConfig(): Config {
  try {
    return loadConfig(process.env, () => randomBytes(32).toString('hex'));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${configErrorLine(error)}\n`);
    process.exit(1);
  }
}

/** Forks the built-in upstream; the gateway exits when it dies (alone it could only answer 502s). */
async function startBuiltInUpstream(config: Config, publicUrl: string, logger: Logger, closing: () => boolean): Promise<RunningUpstream> {
  let upstream: RunningUpstream;
  try {
    upstream = await startUpstream(BUILT_IN_UPSTREAM, upstreamEnv(config, process.env, publicUrl));
  } catch (error) {
    process.stderr.write(`Start-up error: ${(error as Error).message}\n`);
    process.exit(1);
  }
  logger.info({ upstream: upstream.url }, 'built-in upstream started');
  upstream.child.once('exit', (code, signal) => {
    if (closing()) return;
    // Exiting lets the supervisor restart both.
    logger.fatal({ code, signal }, 'built-in upstream exited unexpectedly');
    logger.flush(() => process.exit(1));
  });
  return upstream;
}

/** The only file that listens. Order: config, listen (requests wait), upstream, app; SIGTERM/SIGINT reverse it. */
async function main(): Promise<void> {
  const config = readConfig();
  const stdout = batchedStdout();
  const logger = createLogger({ service: 'gateway', level: config.logLevel, destination: stdout });
  const reporter = await startSentry(config.sentryDsn, config.sentryEnvironment);
  if (!config.xsrfSecretFromEnv) {
    logger.warn('XSRF_SECRET is not set: using a random secret for this process (set it when running several replicas)');
  }
  let closing = false;

  const gateway = createGatewayServer(config.headersTimeoutMs);
  const { port, serve } = await listenEarly(gateway.server, config.port, config.host, logger);
  const publicUrl = config.publicUrl ?? `http://localhost:${port}`;
  if (!config.publicUrl) logger.warn({ publicUrl }, `PUBLIC_URL is not set: links in mails point to ${publicUrl}`);

  const upstream = config.upstreamUrl ? undefined : await startBuiltInUpstream(config, publicUrl, logger, () => closing);
  const upstreamUrl = config.upstreamUrl ?? (upstream as RunningUpstream).url;
  const app = createApp({ ...config, upstreamUrl }, { logger, report: reporter.capture, isClosing: () => closing });
  logger.info({ port, host: config.host ?? 'all interfaces', upstream: config.upstreamUrl ? 'external' : 'built-in' }, 'gateway listening');
  // The start-up lines on stdout before the first answer and before anyone is told the gateway is up, not with the
  // first batch of request lines (batchedStdout).
  stdout.flushSync();
  serve(app);
  gateway.server.on('error', (error) => logger.error({ err: error }, 'gateway server error'));
  process.send?.({ type: 'listening', port });

  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
    closeGracefully(gateway, config.shutdownGraceMs, logger, async () => {
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
