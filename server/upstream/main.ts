import './quiet-sqlite-warning.ts';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import path from 'node:path';
import os from 'node:os';
import { loadConfig, type UpstreamConfig } from './config.ts';
import { createLogger } from '../shared/logger.ts';
import { openStorage, privateFolder, type Storage } from './db/index.ts';
import type { Upstream } from './context.ts';
import { prepareData } from './seed/index.ts';
import { createUpstreamApp } from './app.ts';
import { workAfterAnswers } from './lib/after-answer.ts';

// The built-in /v2 upstream as its own process: the gateway forks it (and waits for the 'listening'
// message), or `npm run upstream` runs it alone. This is the only upstream file that listens.
async function main() {
  let config: UpstreamConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const logger = createLogger({ service: 'upstream', level: config.logLevel });
  // The data folder holds the database (SQLite) and the outbox: the owner's alone, whatever the umask.
  if (config.dataDir !== ':memory:') {
    try {
      privateFolder(config.dataDir);
    } catch (error) {
      console.error(`DATA_DIR ${config.dataDir} cannot be created or made private (mode 700): ${(error as Error).message}`);
      process.exit(1);
    }
  }
  const storage = await openStorage({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, postgresSchema: 'url' });
  try {
    await prepareData(storage.db, { demoData: config.demoData, adminEmail: config.adminEmail, adminPassword: config.adminPassword, logger });
  } catch (error) {
    console.error((error as Error).message);
    await storage.close();
    process.exit(1);
  }

  const dataDir = config.dataDir === ':memory:' ? path.join(os.tmpdir(), 'upstream-memory') : config.dataDir;
  const app = createUpstreamApp({
    db: storage.db,
    logger,
    dataDir,
    publicUrl: config.publicUrl,
    smtpUrl: config.smtpUrl,
    smtpInsecure: config.smtpInsecure,
    mailFrom: config.mailFrom,
    pool: storage.pool,
    session: config.session,
    rateLimits: config.rateLimits,
  });
  const server = app.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    if (!config.publicUrl) {
      app.upstream.publicUrl = `http://localhost:${port}`;
      logger.warn({ publicUrl: app.upstream.publicUrl }, `PUBLIC_URL is not set: links in mails point to ${app.upstream.publicUrl}`);
    }
    logger.info({ port, host: config.host }, 'upstream listening');
    process.send?.({ type: 'listening', port });
  });
  // Idle connections stay open longer than the gateway's pool keeps them, so the gateway always closes first
  // (a request sent into a connection the upstream is just closing fails with a reset).
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.on('error', (error) => {
    console.error(`Upstream cannot listen on ${config.host}:${config.port}: ${error.message}`);
    process.exit(1);
  });

  stopOnSignals(server, app.upstream, storage, logger);
}

/**
 * SIGTERM, SIGINT, or the gateway going away: stop taking connections, let requests in flight finish (5 s at most),
 * write what was promised after an answer, close the database, exit.
 */
function stopOnSignals(server: Server, upstream: Upstream, storage: Storage, logger: Logger): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'upstream stopping');
    // Open keep-alive connections would hold close() forever; give requests in flight 5 s.
    const force = setTimeout(() => server.closeAllConnections(), 5000);
    force.unref();
    server.close(async () => {
      // A reset mail asked for just before the stop is still written.
      await workAfterAnswers(upstream);
      await storage.close();
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Forked by the gateway: when the gateway goes away, so do we.
  process.on('disconnect', () => stop('disconnect'));
}

main().catch((error) => {
  console.error(`Upstream failed to start: ${(error as Error).message}`);
  process.exit(1);
});
