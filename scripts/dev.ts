import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.ts';

/**
 * npm run dev: builds the client, starts the gateway, and on every change rebuilds the client
 * (client/, locales/, static/) and restarts the server (which also picks up server/ changes).
 * A failed build keeps the running server and waits for the next change.
 */
export interface DevOptions {
  root?: string;
  /** The server to run (default server/index.ts). */
  serverEntry?: string;
  env?: NodeJS.ProcessEnv;
  /** Folders whose changes only restart the server. */
  serverDirs?: string[];
  onEvent?: (event: 'built' | 'build-failed' | 'started' | 'stopped', detail?: string) => void;
  debounceMs?: number;
}

export function startDev(options: DevOptions = {}): { stop: () => Promise<void> } {
  const root = resolve(options.root ?? fileURLToPath(new URL('..', import.meta.url)));
  const serverEntry = options.serverEntry ?? join(root, 'server/index.ts');
  const emit = options.onEvent ?? ((event, detail) => console.log(`dev: ${event}${detail ? ` ${detail}` : ''}`));
  const clientDirs = ['client', 'locales', 'static'].map((d) => join(root, d)).filter(existsSync);
  const serverDirs = (options.serverDirs ?? [join(root, 'server')]).filter(existsSync);
  let server: ChildProcess | undefined;
  let timer: NodeJS.Timeout | undefined;
  let pendingBuild = false;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const stopServer = async () => {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    emit('stopped');
  };
  const startServer = () => {
    if (stopped) return;
    server = spawn(process.execPath, [serverEntry], { cwd: root, env: options.env ?? process.env, stdio: 'inherit' });
    emit('started', String(server.pid));
  };
  const cycle = async (withBuild: boolean) => {
    if (withBuild) {
      try {
        await build({ root });
        emit('built');
      } catch (error) {
        emit('build-failed', (error as Error).message);
        return; // keep the running server
      }
    }
    await stopServer();
    startServer();
  };
  const schedule = (withBuild: boolean) => {
    pendingBuild ||= withBuild;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const doBuild = pendingBuild;
      pendingBuild = false;
      running = running.then(() => cycle(doBuild));
    }, options.debounceMs ?? 150);
  };

  const watchers: FSWatcher[] = [
    ...clientDirs.map((dir) => watch(dir, { recursive: true }, () => schedule(true))),
    ...serverDirs.map((dir) =>
      watch(dir, { recursive: true }, (_event, file) => {
        if (file && !String(file).endsWith('.test.ts')) schedule(false);
      }),
    ),
  ];
  running = cycle(true);

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      await running;
      await stopServer();
    },
  };
}

if (import.meta.main) {
  const dev = startDev();
  const quit = () => void dev.stop().then(() => process.exit(0));
  process.on('SIGINT', quit);
  process.on('SIGTERM', quit);
}
