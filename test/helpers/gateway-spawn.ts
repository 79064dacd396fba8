import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

/*
 * Starts the real gateway (`node server/index.ts`) and waits for its IPC 'listening' message. Only node:
 * built-ins and plain path strings, so it also loads in a happy-dom test (where URL is the DOM's URL and
 * fileURLToPath would refuse it).
 */

export const XSRF_SECRET = 'hardening-secret-hardening-secret-0123456789';
const ROOT = resolve(import.meta.dirname, '..', '..');

export interface PlainGateway {
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnPlainGateway(env: Record<string, string>): Promise<PlainGateway> {
  const child = spawn(join(ROOT, 'node_modules/.bin/node'), [join(ROOT, 'server/index.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', XSRF_SECRET, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start within 30 s\n${output}`));
    }, 30_000);
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message?.type !== 'listening' || typeof message.port !== 'number') return;
      clearTimeout(timer);
      resolvePromise({ url: `http://127.0.0.1:${message.port}`, child, output: () => output, exited });
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited during start-up (${signal ?? code})\n${output}`));
    });
  });
}
