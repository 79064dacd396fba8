import { spawn, type ChildProcess } from 'node:child_process';
import { UPSTREAM_NODE_FLAGS } from '../../server/shared/upstream-flags.ts';
import { unusedPort } from './ports.ts';
import { appendFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Repository root (this file lives in test/helpers/). */
export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface RunningServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  baseUrl: string;
  /** Temporary data folder of the built-in upstream (outbox/ holds the mails). */
  dataDir: string;
  /** Everything the process printed, for failure messages. */
  output: () => string;
  /** The gateway's process id (the bench reads its CPU time from /proc). */
  pid: number;
  stop: () => Promise<void>;
}

export interface StartOptions {
  /** Use this data folder instead of a fresh temporary one (kept after stop). */
  dataDir?: string;
  /** Extra environment (for example UPSTREAM_URL to use an upstream started elsewhere). */
  env?: Record<string, string>;
  /** Milliseconds to wait for /readyz. */
  readyTimeout?: number;
  /** Also append everything the gateway prints to this file (a CI artifact next to the screenshots). */
  logFile?: string;
  /** Listen on this port instead of a free one (a restart that the browser must find at the same origin). */
  port?: number;
  /** Send what the gateway prints on stdout (its request log) nowhere: a load test would otherwise measure the reading of it. */
  discardStdout?: boolean;
}

/** A loopback port nothing listens on (test/helpers/ports.ts). */
export const freePort = unusedPort;

/** The e2e suite tests the built client as shipped; a missing build is a setup error, not a failing journey. */
export function assertClientBuilt(): void {
  const index = join(ROOT, 'dist', 'public', 'index.html');
  if (!existsSync(index)) {
    throw new Error(`The client is not built: ${index} is missing. Run "npm run build" first (npm test does this).`);
  }
}

function waitForExit(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
  });
}

async function waitForReady(baseUrl: string, child: ChildProcess, timeout: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeout;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The gateway exited (${child.exitCode ?? child.signalCode}) before it was ready.\n${output()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      // Only the gateway's own answer counts: another server on the port would answer too.
      const body = (await response.json().catch(() => null)) as { status?: unknown } | null;
      if (response.ok && body?.status === 'ready') return;
      lastProblem = `/readyz answered ${response.status}${body ? '' : ', not as the gateway does'}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    // Polling is the only signal a separate process gives; a short pause between tries.
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The gateway was not ready within ${timeout} ms (${lastProblem}).\n${output()}`);
}

/**
 * Starts the real gateway (`node server/index.ts`, the pinned Node of this process) on a free port with
 * demo data and, without UPSTREAM_URL, the forked built-in upstream; resolves once /readyz answers 200.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  // A port found free can still be taken before the gateway listens on it (two workers picking the same one): then
  // another one, unless the caller named the port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(options);
    } catch (error) {
      if (options.port !== undefined || attempt === 3 || !/EADDRINUSE/.test((error as Error).message)) throw error;
    }
  }
}

async function startServerOnce(options: StartOptions): Promise<RunningServer> {
  assertClientBuilt();
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'coach-e2e-'));
  const port = options.port ?? (await freePort());
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    NODE_ENV: 'production',
    // Production needs the public origin (mailed links point there; it is also the one allowed Host).
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_DATA: 'true',
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const child = spawn(process.execPath, [join(ROOT, 'server', 'index.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', options.discardStdout ? 'ignore' : 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000);
    if (options.logFile) appendFileSync(options.logFile, chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const output = () => (log ? `--- gateway output ---\n${log}` : '(the gateway printed nothing)');
  const baseUrl = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await waitForExit(child);
      clearTimeout(timer);
    }
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForReady(baseUrl, child, options.readyTimeout ?? 30_000, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, dataDir, output, pid: child.pid as number, stop };
}

export interface RunningUpstream {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

/**
 * Starts the built-in upstream on its own (server/upstream/main.ts, ephemeral port, IPC 'listening'
 * message), for measurements that need the /v2 API both directly and through a gateway.
 */
export async function startUpstream(dataDir: string, env: Record<string, string> = {}): Promise<RunningUpstream> {
  const child = spawn(process.execPath, [...UPSTREAM_NODE_FLAGS, join(ROOT, 'server', 'upstream', 'main.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'production',
      UPSTREAM_PORT: '0',
      UPSTREAM_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`The upstream did not report 'listening' within 30 s.\n${log}`)), 30_000);
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message?.type === 'listening' && typeof message.port === 'number') {
        clearTimeout(timer);
        resolvePort(message.port);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The upstream exited (${code}) before listening.\n${log}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await waitForExit(child);
      clearTimeout(timer);
    },
  };
}
