import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { NODE_BIN, REPO_ROOT } from './gateway-fixtures.ts';

export interface GatewayProcess {
  url: string;
  port: number;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `node server/index.ts` (the Dockerfile's CMD) as its own process with the given environment and
 * resolves once it reports { type: 'listening', port } over IPC.
 */
export function spawnGateway(env: Record<string, string>, options: { cwd?: string; entry?: string; node?: string } = {}): Promise<GatewayProcess> {
  const entry = options.entry ?? join(REPO_ROOT, 'server/index.ts');
  const child = spawn(options.node ?? NODE_BIN, [entry], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start within 30 s\n${out}\n${err}`));
    }, 30_000);
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message?.type !== 'listening' || typeof message.port !== 'number') return;
      clearTimeout(timer);
      resolve({ url: `http://127.0.0.1:${message.port}`, port: message.port, child, stdout: () => out, stderr: () => err, exited });
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited during start-up (${signal ?? code})\n${out}\n${err}`));
    });
  });
}
