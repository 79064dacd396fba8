import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { UPSTREAM_NODE_FLAGS } from '../../server/shared/upstream-flags.ts';

const MAIN = path.resolve('server/upstream/main.ts');

export interface UpstreamProcess {
  child: ChildProcess;
  port: number;
  url: string;
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Starts the built-in upstream as its own process (server/upstream/main.ts) with exactly `env` (plus PATH), under
 * the given umask (as a shell would: `umask 022; exec node ...`), and resolves when it reports its port over IPC.
 */
export async function startUpstreamProcess(env: Record<string, string>, options: { umask?: string } = {}): Promise<UpstreamProcess> {
  const child = spawn('/bin/sh', ['-c', `umask ${options.umask ?? '022'} && exec "$@"`, 'sh', process.execPath, ...UPSTREAM_NODE_FLAGS, MAIN], {
    env: { PATH: process.env.PATH ?? '', UPSTREAM_PORT: '0', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`upstream exited with ${code} before listening: ${stderr}`);
  });
  const listening = once(child, 'message').then(([message]) => (message as { port: number }).port);
  const port = await Promise.race([listening, exited]);
  exited.catch(() => undefined);
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = once(child, 'exit');
      child.kill('SIGTERM');
      await done;
    },
  };
}
