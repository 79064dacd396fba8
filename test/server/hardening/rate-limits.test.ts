import { describe, expect } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_PASSWORD, Session } from '../../helpers/gateway-stack.ts';
import { stackTest } from '../../helpers/gateway-test.ts';

/*
 * The documented limits (server/upstream/README.md: RATE_LIMIT_PER_ACCOUNT 10 failed attempts per account,
 * RATE_LIMIT_PER_IP 100 requests per IP, per 300 s window) hold through the real gateway, and a client cannot
 * get around them by making up X-Forwarded-For headers.
 */

const PER_ACCOUNT = 10;
const PER_IP = 100;

let counter = 0;
/** A different made-up client address on every request. */
const forged = () => `203.0.113.${(counter++ % 250) + 1}, 198.51.100.${(counter * 7) % 250}`;

async function post(session: Session, path: string, body: unknown, xff?: string): Promise<Response> {
  return session.fetch(path, { method: 'POST', body, headers: xff ? { 'X-Forwarded-For': xff, 'X-Real-IP': xff.split(',')[0] } : {} });
}

async function expect429(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await res.json()).error.statusCode).toBe(429);
}

/** A stack (one per file for each of the two) and a session with it. */
const withSession = (env: Record<string, string>) => stackTest(env).extend('session', { scope: 'file' }, ({ stack }) => new Session(stack.url));
const direct = withSession({ LOG_LEVEL: 'warn' });
const behindProxy = withSession({ LOG_LEVEL: 'warn', TRUST_PROXY: 'loopback' });

describe('without TRUST_PROXY (the default): forged X-Forwarded-For is ignored', () => {
  const test = direct;
  // The process starts here, with a hook's time rather than the first test's, and stops before the next block's.
  test.beforeAll(({ session: _ }) => {}, 60_000);
  test.afterAll(async ({ stack }) => {
    await stack.stop();
  }, 30_000);

  test(`login: after ${PER_ACCOUNT} wrong passwords for one account the next attempt is 429, even with the right password`, async ({ session }) => {
    for (let i = 0; i < PER_ACCOUNT; i++) {
      expect((await post(session, '/v2/auth/login', { email: 'coach@example.org', password: `falsch-${i}` }, forged())).status).toBe(401);
    }
    await expect429(await post(session, '/v2/auth/login', { email: 'coach@example.org', password: DEMO_PASSWORD }, forged()));
    // Another account is not affected.
    expect((await post(session, '/v2/auth/login', { email: 'admin@example.org', password: DEMO_PASSWORD }, forged())).status).toBe(200);
  }, 30_000);

  test(`login: ${PER_IP} attempts per IP, then 429 whatever X-Forwarded-For says`, async ({ session }) => {
    // 12 login requests were made above from this address.
    let sent = PER_ACCOUNT + 2;
    while (sent < PER_IP) {
      const res = await post(session, '/v2/auth/login', { email: `nobody-${sent}@example.org`, password: 'falsch-123' }, forged());
      expect(res.status).toBe(401);
      sent++;
    }
    await expect429(await post(session, '/v2/auth/login', { email: 'health@example.org', password: DEMO_PASSWORD }, forged()));
  }, 90_000);

  test(`forgot-password: ${PER_ACCOUNT} per address, then ${PER_IP} per IP, then 429`, async ({ stack, session }) => {
    const outbox = join(stack.dataDir, 'outbox');
    const mails = () => (existsSync(outbox) ? readdirSync(outbox).length : 0);
    let sent = 0;
    for (; sent < PER_ACCOUNT; sent++) {
      expect((await post(session, '/v2/auth/forgot-password', { email: 'health@example.org' }, forged())).status).toBe(204);
      // Each mail is on disk before the next is asked for: the set-password test takes the newest link, and mails
      // written at the same time (after their answers) can be finished out of order.
      await expect.poll(mails).toBe(sent + 1);
    }
    await expect429(await post(session, '/v2/auth/forgot-password', { email: 'health@example.org' }, forged()));
    sent++;
    for (; sent < PER_IP; sent++) expect((await post(session, '/v2/auth/forgot-password', { email: `x${sent}@example.org` }, forged())).status).toBe(204);
    await expect429(await post(session, '/v2/auth/forgot-password', { email: 'fresh@example.org' }, forged()));
    // Ten mails for health@, no more: the limit also stops flooding a mailbox. (Mails are written after the answer.)
    await expect.poll(mails).toBe(PER_ACCOUNT);
  }, 60_000);

  test(`set-password: ${PER_ACCOUNT} attempts per reset link account, ${PER_IP} per IP, then 429`, async ({ stack }) => {
    const outbox = join(stack.dataDir, 'outbox');
    // Only the newest reset link works (a new one ends the older ones): the file written last (each was written
    // before the next was asked for). Nanoseconds: two mails a request apart can share a millisecond.
    const written = (name: string) => statSync(join(outbox, name), { bigint: true }).mtimeNs;
    const newest = readdirSync(outbox).sort((a, b) => (written(a) < written(b) ? -1 : written(a) > written(b) ? 1 : 0));
    const mail = readFileSync(join(outbox, newest.at(-1)!), 'utf8');
    const token = decodeURIComponent(/access_token=([^\s&]+)/.exec(mail)![1]);
    const withLink = new Session(stack.url);
    withLink.token = token;
    let sent = 0;
    // Invalid bodies (422) still count: guessing is what the limit is for.
    for (; sent < PER_ACCOUNT; sent++) expect((await post(withLink, '/v2/auth/me/set-password', { password: 'kurz' }, forged())).status).toBe(422);
    await expect429(await post(withLink, '/v2/auth/me/set-password', { password: 'Lang-genug-1' }, forged()));
    sent++;
    const guesser = new Session(stack.url);
    for (; sent < PER_IP; sent++) {
      guesser.token = `guessed-${sent}`;
      expect((await post(guesser, '/v2/auth/me/set-password', { password: 'Lang-genug-1' }, forged())).status).toBe(401);
    }
    await expect429(await post(guesser, '/v2/auth/me/set-password', { password: 'Lang-genug-1' }, forged()));
  }, 60_000);
});

describe('with TRUST_PROXY=loopback (a proxy on this machine): each client has its own bucket, forged entries do not help', () => {
  const test = behindProxy;
  // The process starts here, with a hook's time rather than the first test's, and stops before the next block's.
  test.beforeAll(({ session: _ }) => {}, 60_000);
  test.afterAll(async ({ stack }) => {
    await stack.stop();
  }, 30_000);

  test('a client whose proxy-added address is fixed hits the limit however it varies the entries before it', async ({ session }) => {
    // The test plays the proxy: it appends the real client (192.0.2.10) after whatever the client sent.
    for (let i = 0; i < PER_IP; i++) {
      const res = await post(session, '/v2/auth/forgot-password', { email: `a${i}@example.org` }, `${forged()}, 192.0.2.10`);
      expect(res.status).toBe(204);
    }
    await expect429(await post(session, '/v2/auth/forgot-password', { email: 'b@example.org' }, `10.9.8.7, 192.0.2.10`));
    // Another client behind the same proxy is not punished for it.
    expect((await post(session, '/v2/auth/forgot-password', { email: 'c@example.org' }, '192.0.2.11')).status).toBe(204);
  }, 60_000);
});
