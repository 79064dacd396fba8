import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import request from 'supertest';
import { createApp } from '../../../server/app.ts';
import { makePublicDir, testConfig } from '../../helpers/gateway-fixtures.ts';
import { upstreamTest } from '../../helpers/upstream-test.ts';

/*
 * GET /session/draft-key in front of the built-in upstream: only a live login token gets the key that opens a
 * coach's drafts. A mailed reset link's token names the same coach but is no session; neither is a token that
 * idled out, was signed out or ended by a lock (docs/drafts-and-sessions.md).
 */
/** The gateway in front of the test's upstream `t`, which listens on a port for it; both closed after the test. */
const test = upstreamTest().extend('gateway', async ({ t }, { onCleanup }) => {
  const server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const publicDir = await makePublicDir();
  onCleanup(async () => {
    await new Promise((resolve) => server.close(resolve));
    publicDir.cleanup();
  });
  const { port } = server.address() as AddressInfo;
  return createApp(testConfig({ UPSTREAM_URL: `http://127.0.0.1:${port}` }), { publicDir: publicDir.dir });
});
const keyWith = (gateway: ReturnType<typeof createApp>, token: string) => request(gateway).get('/session/draft-key').set('Authorization', `Bearer ${token}`);

test('a live login token gets the key; a reset link token of the same coach does not', async ({ t, gateway }) => {
  const session = await t.login('coach@example.org');
  expect((await keyWith(gateway, session)).status).toBe(200);
  await request(t.app).post('/v2/auth/forgot-password').send({ email: 'coach@example.org' }).expect(204);
  await t.settled();
  const mail = t.outbox().findLast((m) => m.text.includes('access_token='))!;
  const resetToken = decodeURIComponent(/access_token=(\S+)/.exec(mail.text)![1]);
  const refused = await keyWith(gateway, resetToken);
  expect(refused.status).toBe(401);
  expect(refused.body.key).toBeUndefined();
});

test('an idle, signed-out or locked-out token gets no key', async ({ t, gateway }) => {
  const idle = await t.login('coach@example.org');
  t.clock.advance(30 * 60 + 1);
  expect((await keyWith(gateway, idle)).status).toBe(401);
  const signedOut = await t.login('coach@example.org');
  await request(t.app).post('/v2/auth/logout').set('Authorization', `Bearer ${signedOut}`).expect(204);
  expect((await keyWith(gateway, signedOut)).status).toBe(401);
  const admin = await t.login('admin@example.org');
  const locked = await t.login('coach@example.org');
  await request(t.app).patch('/v2/coaches/coach').set('Authorization', `Bearer ${admin}`).send({ isUserLocked: true }).expect(200);
  await request(t.app).patch('/v2/coaches/coach').set('Authorization', `Bearer ${admin}`).send({ isUserLocked: false }).expect(200);
  expect((await keyWith(gateway, locked)).status).toBe(401);
});
