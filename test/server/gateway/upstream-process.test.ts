import { describe, expect } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_UPSTREAM, startUpstream, upstreamEnv } from '../../../server/upstream-process.ts';
import type { RunningUpstream } from '../../../server/upstream-process.ts';
import { UPSTREAM_NODE_FLAGS } from '../../../server/shared/upstream-flags.ts';
import { REPO_ROOT, testConfig } from '../../helpers/gateway-fixtures.ts';
import { spawnTest } from '../../helpers/gateway-test.ts';

const FAKE_MAIN = join(REPO_ROOT, 'test/helpers/gateway-fake-upstream-main.ts');
// What a test starts is stopped or removed when it ends.
const test = spawnTest
  /** `start(entry, env)`: startUpstream. */
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('start', ({}, { onCleanup }) => {
    const started: RunningUpstream[] = [];
    onCleanup(async () => {
      for (const running of started) await running.stop(1000);
    });
    return async (...args: Parameters<typeof startUpstream>): Promise<RunningUpstream> => {
      const running = await startUpstream(...args);
      started.push(running);
      return running;
    };
  })
  /** `tempDir(prefix)`: a new folder under the system's temporary folder. */
  // biome-ignore lint/correctness/noEmptyPattern: see above
  .extend('tempDir', ({}, { onCleanup }) => {
    const made: string[] = [];
    onCleanup(() => {
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    });
    return (prefix: string) => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    };
  });

describe('starting an upstream process', () => {
  test('forks the entry, waits for its listening message and stops it with SIGTERM', async ({ start }) => {
    const running = await start(
      FAKE_MAIN,
      upstreamEnv(
        testConfig({ DATA_DIR: '/tmp/x', DEMO_DATA: 'false', ADMIN_EMAIL: 'a@b.de', ADMIN_PASSWORD: 'long-enough' }),
        { PATH: process.env.PATH, XSRF_SECRET: 'x'.repeat(40) },
        'http://localhost:8080',
      ),
    );
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const answer = await (await fetch(`${running.url}/v2/app-settings/version`)).json();
    expect(answer.env).toEqual({ DATA_DIR: '/tmp/x', DEMO_DATA: 'false', ADMIN_EMAIL: 'a@b.de', HAS_XSRF_SECRET: false });
    const child = running.child;
    await running.stop(1000);
    expect(child.exitCode).toBe(0);
  });

  test('runs the upstream with its own Node flags, the ones `npm run upstream` uses too', async ({ start }) => {
    const env = upstreamEnv(testConfig({ DATA_DIR: '/tmp/x', DEMO_DATA: 'true' }), { PATH: process.env.PATH }, 'http://localhost:8080');
    const running = await start(FAKE_MAIN, env);
    const commandLine = readFileSync(`/proc/${running.child.pid}/cmdline`, 'utf8').split('\0');
    expect(commandLine).toEqual(expect.arrayContaining([...UPSTREAM_NODE_FLAGS]));
    const scripts = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.upstream.split(' ')).toEqual(expect.arrayContaining([...UPSTREAM_NODE_FLAGS]));
  });

  test('hands the upstream its settings and passes unknown upstream options through, but never the gateway secrets', () => {
    const env = upstreamEnv(
      testConfig({ ADMIN_EMAIL: 'admin@example.org', ADMIN_PASSWORD: 'Demo-Passwort-1', UPSTREAM_IDLE_TIMEOUT_MS: '3000' }),
      {
        PATH: '/bin',
        XSRF_SECRET: 'x'.repeat(40),
        SENTRY_DSN: 'https://k@s/1',
        PORT: '8080',
        ALLOWED_HOSTS: 'coach.example.org',
        PUBLIC_URL: 'https://from-the-environment.example',
        DATABASE_URL: 'postgres://u:p@db/coach',
        RATE_LIMIT_PER_IP: '50',
      },
      'https://coach.example.org',
    );
    expect(env).toMatchObject({
      UPSTREAM_PORT: '0',
      UPSTREAM_HOST: '127.0.0.1',
      DATA_DIR: './data',
      DEMO_DATA: 'true',
      ADMIN_EMAIL: 'admin@example.org',
      ADMIN_PASSWORD: 'Demo-Passwort-1',
      PATH: '/bin',
      DATABASE_URL: 'postgres://u:p@db/coach',
      RATE_LIMIT_PER_IP: '50',
      // The origin the gateway decided on (PUBLIC_URL or its logged fallback), and a keep-alive longer than its pool's.
      PUBLIC_URL: 'https://coach.example.org',
      UPSTREAM_KEEP_ALIVE_TIMEOUT_MS: '8000',
    });
    for (const key of ['XSRF_SECRET', 'SENTRY_DSN', 'PORT', 'ALLOWED_HOSTS', 'UPSTREAM_IDLE_TIMEOUT_MS']) expect(env).not.toHaveProperty(key);
  });

  test('rejects with a clear message when the entry does not exist', async () => {
    await expect(startUpstream('/nonexistent/main.ts', {})).rejects.toThrow(/not available yet: set UPSTREAM_URL/);
  });

  test('rejects when the process exits before listening', async ({ tempDir }) => {
    const dir = tempDir('upstream-crash-');
    const entry = join(dir, 'crash.ts');
    writeFileSync(entry, 'process.exit(3);\n');
    await expect(startUpstream(entry, { PATH: process.env.PATH })).rejects.toThrow(/exited during start-up \(code 3\)/);
  });
});

describe.skipIf(!existsSync(BUILT_IN_UPSTREAM))('the gateway without UPSTREAM_URL', () => {
  test('starts the built-in upstream, proxies to it, and stops it on SIGTERM', { timeout: 60_000 }, async ({ spawn, tempDir }) => {
    const dataDir = tempDir('gateway-data-');
    const gateway = await spawn({ DATA_DIR: dataDir, DEMO_DATA: 'true' });
    const ready = await fetch(`${gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    const login = await fetch(`${gateway.url}/v2/auth/login`, { method: 'POST' });
    expect(login.status).toBe(403); // no XSRF token: refused by the gateway, proves the route is guarded
    const line = gateway
      .stdout()
      .split('\n')
      .find((l) => l.includes('built-in upstream started'))!;
    const upstreamUrl = (JSON.parse(line) as { upstream: string }).upstream;
    expect((await fetch(`${upstreamUrl}/v2/app-settings/version`)).status).toBeLessThan(500);
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${upstreamUrl}/v2/app-settings/version`)).rejects.toThrow();
  });
});
