import { afterEach, expect, test } from 'vitest';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { capturedLogger } from '../../helpers/upstream-log.ts';
import { requestLogger, scrubUrl } from '../../../server/upstream/http/request-log.ts';
import express from 'express';
import { UPSTREAM_NODE_FLAGS } from '../../../server/shared/upstream-flags.ts';

const main = path.resolve('server/upstream/main.ts');
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstream-proc-'));
  dirs.push(dataDir);
  const child = fork(main, [], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, UPSTREAM_PORT: '0', LOG_LEVEL: 'silent', ...env },
    execArgv: [...UPSTREAM_NODE_FLAGS],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return { child, stderr: () => stderr };
}

test('runs as its own process: reports its port over IPC, answers, and exits 0 on SIGTERM', async () => {
  const { child } = start({ DEMO_DATA: 'false', ADMIN_EMAIL: 'chef@example.org', ADMIN_PASSWORD: 'Sehr-Geheim-1' });
  const [message] = (await once(child, 'message')) as [{ type: string; port: number }];
  expect(message.type).toBe('listening');
  expect(message.port).toBeGreaterThan(0);
  const res = await fetch(`http://127.0.0.1:${message.port}/v2/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'chef@example.org', password: 'Sehr-Geheim-1' }),
  });
  expect(res.status).toBe(200);
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
}, 20_000);

test('refuses to start with one clear line when there is no administrator and no demo data', async () => {
  const { child, stderr } = start({ DEMO_DATA: 'false' });
  const [code] = await once(child, 'exit');
  expect(code).toBe(1);
  const lines = stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^No administrator exists: set ADMIN_EMAIL and ADMIN_PASSWORD/);
}, 20_000);

test('refuses a wrong environment value with one line that names the variable', async () => {
  const { child, stderr } = start({ DEMO_DATA: 'vielleicht' });
  const [code] = await once(child, 'exit');
  expect(code).toBe(1);
  expect(stderr().trim()).toBe('Invalid environment: DEMO_DATA must be true or false');
}, 20_000);

test('request logs redact credentials and tokens in URLs', async () => {
  const log = capturedLogger();
  const app = express();
  app.use(requestLogger(log.logger));
  app.get('/x', (_req, res) => res.set('Set-Cookie', 'sid=geheim-cookie').json({}));
  await request(app)
    .get('/x?access_token=geheim-link&accessToken=geheim-2&page=2')
    .set('Authorization', 'Bearer geheim-bearer')
    .set('Cookie', 'XSRF-TOKEN=geheim-xsrf')
    .set('X-XSRF-TOKEN', 'geheim-header');
  const text = log.raw.join('\n');
  // Parameter names stay, values never reach the log (filters hold search words such as patient names).
  expect(text).toContain('page=[Redacted]');
  expect(text).not.toContain('geheim');
  expect(log.lines()[0]).toMatchObject({ req: { headers: { authorization: '[Redacted]', cookie: '[Redacted]', 'x-xsrf-token': '[Redacted]' } } });
  expect(scrubUrl('/reset-password?access_token=abc#x')).toBe('/reset-password?access_token=[Redacted]#x');
});
