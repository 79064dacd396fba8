import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../../../scripts/build.ts';
import { NODE_BIN, REPO_ROOT } from '../../helpers/gateway-fixtures.ts';
import { spawnGateway } from '../../helpers/gateway-process.ts';
import type { GatewayProcess } from '../../helpers/gateway-process.ts';

/** The runtime stage as the Dockerfile says it: its ENV, the files it copies, its CMD; and what the install stage copies. */
function runtimeStage() {
  const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const install = /^COPY (package\.json .+) \.\/$/m.exec(dockerfile)?.[1].split(' ') ?? [];
  const stage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of stage.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const [, key, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[key] = value;
  }
  const copied = [...stage.matchAll(/^COPY --from=build (.+) \.\/?\S*$/gm)].flatMap((m) => m[1].split(' ').map((p) => p.replace('/app/', '')));
  if (copied.length < 4) throw new Error(`could not read the COPY lines of the runtime stage: ${copied.join(', ')}`);
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(stage)![1]) as string[];
  const healthcheck = JSON.parse(/HEALTHCHECK .*CMD (\[.*\])$/m.exec(stage)![1]) as string[];
  return { stage, env, install, copied, cmd, healthcheck };
}

/**
 * npm's environment as on a machine of its own: npm and npx hand their configuration to child processes as
 * npm_config_* variables (this run's legacy-peer-deps from the project's .npmrc among them), which would hide a
 * Dockerfile that forgets to copy .npmrc.
 */
const npmEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));

// Slow (about 45 s: a real npm install, then the prune). No Docker engine runs here, so this reproduces the
// runtime stage in a temp folder and starts it with the image's CMD.
describe('the Docker runtime stage (slow)', () => {
  const stage = runtimeStage();
  let dir: string;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-runtime-'));
    if (!existsSync(join(REPO_ROOT, 'dist/build-manifest.json'))) await build();
    // The install and build stages' own steps: the files the install stage copies, `npm ci`, `npm run prune:production`
    // (without the .npmrc it copies, the prune would keep 60 MB of unused peers and the size case below fails).
    expect(stage.install).toContain('package-lock.json');
    for (const file of stage.install) cpSync(join(REPO_ROOT, file), join(dir, file));
    const npm = (...args: string[]) =>
      execFileSync('npm', args, {
        cwd: dir,
        env: { ...npmEnv(), PATH: `${join(REPO_ROOT, 'node_modules/.bin')}:${process.env.PATH}` },
        stdio: 'ignore',
        timeout: 240_000,
      });
    npm('ci', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund');
    npm('run', 'prune:production');
    for (const path of stage.copied.filter((p) => p !== 'node_modules')) cpSync(join(REPO_ROOT, path), join(dir, path), { recursive: true });
    mkdirSync(join(dir, 'data'));
  }, 300_000);
  afterAll(() => {
    if (gateway && gateway.child.exitCode === null) gateway.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('sets production mode, port 8080 and no demo data, runs as a non-root user and has a health check', () => {
    expect(stage.env).toMatchObject({ NODE_ENV: 'production', PORT: '8080', DEMO_DATA: 'false' });
    expect(stage.stage).toMatch(/^USER node$/m);
    expect(stage.stage).toMatch(/^EXPOSE 8080$/m);
    expect(stage.stage).toMatch(/^FROM node:24-[\w-]*slim AS runtime$/m);
    expect(stage.healthcheck.join(' ')).toContain('/healthz');
  });

  test('holds no development dependency and no client package (they are bundled at build time)', () => {
    const absent = ['esbuild', 'vitest', 'supertest', 'playwright-core', 'happy-dom', 'node', 'typescript', '@biomejs/biome'];
    for (const name of [...absent, 'preact', 'react', 'react-dom', 'wouter', 'rosetta', '@picocss/pico', '@sentry/browser', '@opentelemetry/api']) {
      expect(existsSync(join(dir, 'node_modules', name)), name).toBe(false);
    }
  });

  test('installs at most 60 MB of packages', () => {
    const megabytes = Number(execFileSync('du', ['-sm', join(dir, 'node_modules')], { encoding: 'utf8' }).split('\t')[0]);
    expect(megabytes).toBeGreaterThan(5);
    expect(megabytes).toBeLessThanOrEqual(60);
  });

  test("an operator's production install (`npm ci --omit=dev`) is the same tree", () => {
    const plain = mkdtempSync(join(tmpdir(), 'gateway-omit-dev-'));
    try {
      for (const file of ['package.json', 'package-lock.json', '.npmrc']) cpSync(join(REPO_ROOT, file), join(plain, file));
      execFileSync('npm', ['ci', '--omit=dev', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: plain,
        env: npmEnv(),
        stdio: 'ignore',
        timeout: 240_000,
      });
      const packages = (root: string) =>
        execFileSync('find', ['node_modules', '-name', 'package.json', '-not', '-path', '*/node_modules/*/node_modules/*/*/*'], { cwd: root, encoding: 'utf8' })
          .split('\n')
          .filter(Boolean)
          .sort();
      expect(packages(plain)).toEqual(packages(dir));
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  }, 120_000);

  test('refuses to start without PUBLIC_URL, with one line naming it', () => {
    const result = spawnSync(NODE_BIN, [join(dir, stage.cmd[1])], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', ...stage.env, PORT: '0', DATA_DIR: join(dir, 'data') },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Configuration error: PUBLIC_URL must be set when NODE_ENV=production/);
  }, 30_000);

  test('starts with the CMD, answers /healthz and serves the page; the health check command passes; SIGTERM exits 0', async () => {
    expect(stage.cmd[0]).toBe('node');
    gateway = await spawnGateway(
      {
        ...stage.env,
        PUBLIC_URL: 'http://127.0.0.1:8080',
        PORT: '0',
        DATA_DIR: join(dir, 'data'),
        ADMIN_EMAIL: 'admin@example.org',
        ADMIN_PASSWORD: 'Start-Passwort-1',
        APP_TITLE: 'Docker Test',
      },
      { cwd: dir, entry: join(dir, stage.cmd[1]) },
    );
    const health = await fetch(`${gateway.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const page = await fetch(`${gateway.url}/login`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>Docker Test</title>');
    const entry = /<script type="module" src="([^"]+)"/.exec(html)![1];
    expect((await fetch(`${gateway.url}${entry}`)).status).toBe(200);
    expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);

    // The HEALTHCHECK line, run as Docker would (with this instance's port).
    execFileSync(NODE_BIN, stage.healthcheck.slice(1), { env: { PORT: String(gateway.port) }, timeout: 10_000 });

    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});
