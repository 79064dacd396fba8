import { test as baseTest, expect } from 'vitest';
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_BIN, REPO_ROOT } from '../../helpers/gateway-fixtures.ts';
import { spawnGateway } from '../../helpers/gateway-process.ts';
import { DEMO_PASSWORD, Session, XSRF_SECRET } from '../../helpers/gateway-stack.ts';
import { UPSTREAM_NODE_FLAGS } from '../../../server/shared/upstream-flags.ts';

/*
 * Several replicas: one built-in upstream on its own, two gateway processes in front of it sharing XSRF_SECRET
 * (as behind a load balancer without sticky sessions). A browser's cookies and XSRF token from one replica
 * work on the other; a replica with another secret refuses them.
 */

/** Starts the built-in upstream on its own with the demo data in `dataDir`; resolves with it and its URL. */
async function forkUpstream(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(join(REPO_ROOT, 'server/upstream/main.ts'), [], {
    execPath: NODE_BIN,
    execArgv: [...UPSTREAM_NODE_FLAGS],
    env: { PATH: process.env.PATH, UPSTREAM_PORT: '0', DATA_DIR: dataDir, DEMO_DATA: 'true', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.on('message', (m: { type?: string; port?: number }) => m?.type === 'listening' && resolve(m.port!));
    child.once('exit', (code) => reject(new Error(`upstream exited ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

const test = baseTest
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('upstreamUrl', { scope: 'file' }, async ({}, { onCleanup }) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hardening-scale-'));
    let upstream: ChildProcess | undefined;
    onCleanup(async () => {
      upstream?.kill('SIGTERM');
      await new Promise((resolve) => (!upstream || upstream.exitCode !== null ? resolve(null) : upstream.once('exit', resolve)));
      rmSync(dataDir, { recursive: true, force: true });
    });
    const started = await forkUpstream(dataDir);
    upstream = started.child;
    return started.url;
  })
  /** Replicas `a` and `b` share the XSRF secret; `other` has another one. */
  .extend('replicas', { scope: 'file' }, async ({ upstreamUrl }, { onCleanup }) => {
    const started = await Promise.allSettled([
      spawnGateway({ UPSTREAM_URL: upstreamUrl, XSRF_SECRET, LOG_LEVEL: 'warn' }),
      spawnGateway({ UPSTREAM_URL: upstreamUrl, XSRF_SECRET, LOG_LEVEL: 'warn' }),
      spawnGateway({ UPSTREAM_URL: upstreamUrl, XSRF_SECRET: 'another-secret-another-secret-another-1234', LOG_LEVEL: 'warn' }),
    ]);
    const gateways = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    onCleanup(async () => {
      for (const gateway of gateways) gateway.child.kill('SIGTERM');
      await Promise.all(gateways.map((g) => g.exited));
    });
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const [a, b, other] = gateways;
    return { a, b, other };
  })
  .extend('a', { scope: 'file' }, ({ replicas }) => replicas.a)
  .extend('b', { scope: 'file' }, ({ replicas }) => replicas.b)
  .extend('other', { scope: 'file' }, ({ replicas }) => replicas.other);
// The processes start here, with a hook's time rather than the first test's.
test.beforeAll(({ replicas: _ }) => {}, 60_000);

/** The same browser (cookie jar, token) talking to another replica. */
function sameBrowserOn(session: Session, base: string): Session {
  const moved = new Session(base);
  for (const [k, v] of session.cookies) moved.cookies.set(k, v);
  moved.token = session.token;
  return moved;
}

test('a write with the XSRF token from replica A is accepted by replica B, and the other way round', async ({ a, b }) => {
  const onA = new Session(a.url);
  await onA.fetch('/login');
  await onA.login('coach@example.org', DEMO_PASSWORD);
  const patients = (await (await onA.fetch('/v2/patients')).json()) as { id: string }[];

  const onB = sameBrowserOn(onA, b.url);
  const created = await onB.fetch('/v2/comments', { method: 'POST', body: { patientId: patients[0].id, text: 'über Replik B' } });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };

  // B did not need to replace the cookie: it is valid there as it is.
  expect(created.headers.getSetCookie().some((c) => c.startsWith('XSRF-TOKEN='))).toBe(false);

  const back = sameBrowserOn(onB, a.url);
  const changed = await back.fetch(`/v2/comments/${id}`, { method: 'PATCH', body: { text: 'über Replik A geändert' } });
  expect(changed.status).toBe(200);
  expect(((await changed.json()) as { text: string }).text).toBe('über Replik A geändert');
});

test('a replica with a different XSRF_SECRET refuses that token with 403 and forwards nothing', async ({ a, other }) => {
  const onA = new Session(a.url);
  await onA.fetch('/login');
  await onA.login('coach@example.org', DEMO_PASSWORD);
  const onOther = sameBrowserOn(onA, other.url);
  const refused = await onOther.fetch('/v2/auth/logout', { method: 'POST' });
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('XSRF_TOKEN_INVALID');
  // The session was not ended: the logout never reached the upstream.
  expect((await onA.fetch('/v2/auth/me')).status).toBe(200);
}, 20_000);
