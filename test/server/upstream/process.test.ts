import { afterEach, expect, test } from 'vitest';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { capturedLogger } from '../../helpers/upstream-log.ts';
import { redactUrl as scrubUrl } from '../../../server/shared/redaction.ts';
import { createTestUpstream } from '../../helpers/upstream-app.ts';
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

test('request logs carry method, URL without query values, status and the request id, never a header, body or token', async () => {
  const log = capturedLogger();
  const t = await createTestUpstream({ logger: log.logger, logRequests: true });
  try {
    const token = await t.login('coach@example.org');
    const answer = await request(t.app)
      .get('/v2/patients')
      .query({ filter: JSON.stringify({ where: { lastName: { like: '%Geheimname%' } } }) })
      .set('Authorization', `Bearer ${token}`)
      .set('Cookie', 'XSRF-TOKEN=geheim-xsrf')
      .set('X-XSRF-TOKEN', 'geheim-header')
      .set('X-Request-Id', 'gateway-id-1');
    expect(answer.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    const text = log.raw.join('\n');
    for (const secret of ['geheim', 'Geheimname', token, 'Demo-Passwort']) expect(text).not.toContain(secret);
    const line = log.lines().find((l) => (l.req as { id?: string } | undefined)?.id === 'gateway-id-1');
    // Parameter names stay, values never reach the log (filters hold search words such as patient names).
    expect(line).toMatchObject({ req: { method: 'GET', url: '/v2/patients?filter=[Redacted]' }, res: { statusCode: 200 }, msg: 'request completed' });
    expect(Object.keys(line!.req as object).sort()).toEqual(['id', 'method', 'remoteAddress', 'url']);
    expect(answer.headers['x-request-id']).toBe('gateway-id-1');
  } finally {
    await t.close();
  }
  expect(scrubUrl('/reset-password?access_token=abc&accessToken=def#x')).toBe('/reset-password?access_token=[Redacted]&accessToken=[Redacted]#x');
});
