import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.ts';
import { UPSTREAM_NODE_FLAGS } from './shared/upstream-flags.ts';

export const BUILT_IN_UPSTREAM = fileURLToPath(new URL('./upstream/main.ts', import.meta.url));

export interface RunningUpstream {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL if it has not exited within graceMs. */
  stop: (graceMs: number) => Promise<void>;
}

/** Settings only the gateway uses; the XSRF secret in particular never leaves the gateway process. */
const GATEWAY_ONLY = [
  'PORT',
  'HOST',
  'UPSTREAM_URL',
  'APP_TITLE',
  'SENTRY_DSN',
  'SENTRY_ENVIRONMENT',
  'TRUST_PROXY',
  'PROXY_TIMEOUT_MS',
  'XSRF_SECRET',
  'SHUTDOWN_GRACE_MS',
  'ALLOWED_HOSTS',
  'UPSTREAM_IDLE_TIMEOUT_MS',
];

/**
 * The built-in upstream keeps an idle connection open this much longer than the gateway's pool keeps it, so the
 * gateway always closes first and never sends a request into a connection the upstream is closing.
 */
export const UPSTREAM_KEEP_ALIVE_MARGIN_MS = 5_000;

/**
 * The built-in upstream's environment: the gateway's own, less the gateway-only settings (so upstream options
 * such as DATABASE_URL or RATE_LIMIT_* pass through), with the values the gateway checked and an ephemeral
 * loopback port: the upstream is reachable only through the gateway. publicUrl is PUBLIC_URL or the fallback
 * the gateway logged: the upstream builds every mailed link from it and from nothing a request says.
 */
export function upstreamEnv(config: Config, base: NodeJS.ProcessEnv, publicUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const key of GATEWAY_ONLY) delete env[key];
  Object.assign(env, {
    UPSTREAM_PORT: '0',
    UPSTREAM_HOST: '127.0.0.1',
    DATA_DIR: config.upstream.dataDir,
    DEMO_DATA: String(config.upstream.demoData),
    LOG_LEVEL: config.logLevel,
    PUBLIC_URL: publicUrl,
    UPSTREAM_KEEP_ALIVE_TIMEOUT_MS: String(config.upstreamIdleTimeoutMs + UPSTREAM_KEEP_ALIVE_MARGIN_MS),
    // The server counts the same idle time as the page's own sign-out.
    SESSION_IDLE_MINUTES: String(config.session.idleMinutes),
    SESSION_MAX_HOURS: String(config.session.maxHours),
  });
  if (config.upstream.adminEmail) env.ADMIN_EMAIL = config.upstream.adminEmail;
  if (config.upstream.adminPassword) env.ADMIN_PASSWORD = config.upstream.adminPassword;
  if (config.upstream.smtpUrl) env.SMTP_URL = config.upstream.smtpUrl;
  for (const key of Object.keys(env)) if (env[key] === undefined || env[key] === '') delete env[key];
  return env;
}

/**
 * Forks the upstream entry on an ephemeral loopback port and resolves once it reports
 * { type: 'listening', port } over IPC. Rejects when it exits first or stays silent for startTimeoutMs.
 */
export function startUpstream(entry: string, env: NodeJS.ProcessEnv, startTimeoutMs = 30_000): Promise<RunningUpstream> {
  if (!existsSync(entry)) {
    return Promise.reject(new Error(`the built-in upstream (${entry}) is not available yet: set UPSTREAM_URL to an existing /v2 API`));
  }
  // execArgv is set explicitly: the gateway's own flags (a debugger, --watch) must not leak into the upstream, which
  // gets its own (server/shared/upstream-flags.ts).
  const child = fork(entry, [], { execPath: process.execPath, execArgv: [...UPSTREAM_NODE_FLAGS], env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (graceMs: number) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`the built-in upstream did not report listening within ${startTimeoutMs} ms`));
    }, startTimeoutMs);
    const onMessage = (message: unknown) => {
      const m = message as { type?: string; port?: unknown };
      if (m?.type === 'listening' && typeof m.port === 'number') {
        cleanup();
        resolve({ url: `http://127.0.0.1:${m.port}`, child, stop });
      }
    };
    const onExit = (code: number | null, signal: string | null) => {
      cleanup();
      reject(new Error(`the built-in upstream exited during start-up (${signal ?? `code ${code}`})`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}
