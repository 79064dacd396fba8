import { beforeEach, describe, expect, vi } from 'vitest';
import request from 'supertest';
import { PASSWORD, type TestUpstream } from '../../helpers/upstream-app.ts';
import { upstreamTest } from '../../helpers/upstream-test.ts';

// Every scrypt computation the upstream runs (password checks and hashes), counted: the limit must hold
// before the expensive check, not after it.
const scrypt = vi.hoisted(() => ({ calls: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  const counted = ((...args: Parameters<typeof crypto.scrypt>) => {
    scrypt.calls++;
    return (crypto.scrypt as (...a: unknown[]) => void)(...args);
  }) as typeof crypto.scrypt;
  return { ...crypto, default: { ...crypto, scrypt: counted }, scrypt: counted };
});

const test = upstreamTest();

const login = (t: TestUpstream, email: string, password: string, from?: string) => {
  const req = request(t.app).post('/v2/auth/login');
  return (from ? req.set('X-Forwarded-For', from) : req).send({ email, password });
};

describe('password guessing', () => {
  beforeEach(() => {
    scrypt.calls = 0;
  });

  test('40 parallel wrong passwords for one account: at most 10 reach the password check', async ({ upstream }) => {
    const t = await upstream({ rateLimits: { perAccount: 10, perIp: 1000, windowSeconds: 300 } });
    scrypt.calls = 0;
    const answers = await Promise.all(Array.from({ length: 40 }, () => login(t, 'coach@example.org', 'falsch-falsch')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    expect(scrypt.calls).toBeLessThanOrEqual(10);
    expect(scrypt.calls).toBeGreaterThan(0);
  });

  test('ten wrong passwords from another address do not lock the owner out', async ({ upstream }) => {
    const t = await upstream({ rateLimits: { perAccount: 10, perIp: 1000, windowSeconds: 300 } });
    for (let i = 0; i < 10; i++) expect((await login(t, 'coach@example.org', 'falsch-falsch', '203.0.113.7')).status).toBe(401);
    expect((await login(t, 'coach@example.org', PASSWORD, '203.0.113.7')).status).toBe(429);
    expect((await login(t, 'coach@example.org', PASSWORD, '198.51.100.20')).status).toBe(200);
  });

  test("guesses spread over many addresses hit the per-account ceiling, which the owner's own addresses do not count against", async ({ upstream }) => {
    const t = await upstream({ rateLimits: { perAccount: 2, perAccountCeiling: 4, perIp: 1000, windowSeconds: 300 } });
    // The owner signs in from the office once: that address is known from now on.
    expect((await login(t, 'coach@example.org', PASSWORD, '198.51.100.20')).status).toBe(200);
    const statuses: number[] = [];
    for (let address = 1; address <= 5; address++) {
      for (let i = 0; i < 2; i++) statuses.push((await login(t, 'coach@example.org', 'falsch-falsch', `203.0.113.${address}`)).status);
    }
    // Four checks ran, then the ceiling stopped the guessing from every further new address.
    expect(statuses.filter((s) => s === 401)).toHaveLength(4);
    expect(statuses.slice(4).every((s) => s === 429)).toBe(true);
    expect((await login(t, 'coach@example.org', PASSWORD, '192.0.2.99')).status).toBe(429);
    // The owner's known address still works.
    expect((await login(t, 'coach@example.org', PASSWORD, '198.51.100.20')).status).toBe(200);
  });

  test('update-password counts wrong old passwords like wrong logins', async ({ upstream }) => {
    const t = await upstream({ rateLimits: { perAccount: 3, perIp: 1000, windowSeconds: 300 } });
    const token = await t.login('coach@example.org');
    const change = (oldPassword: string) =>
      request(t.app).patch('/v2/auth/me/update-password').set('Authorization', `Bearer ${token}`).send({ oldPassword, newPassword: 'Neues-Passwort-2' });
    scrypt.calls = 0;
    const answers = await Promise.all(Array.from({ length: 12 }, () => change('nicht-richtig')));
    // The login above took a point and gave it back: three checks, nine refusals.
    expect(answers.filter((a) => a.status === 400)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(9);
    expect(scrypt.calls).toBeLessThanOrEqual(3);
    const limited = await change(PASSWORD);
    expect(limited.status).toBe(429);
    // The password did not change (checked from another address: this one has used up its attempts).
    expect((await login(t, 'coach@example.org', PASSWORD, '198.51.100.20')).status).toBe(200);
  });
});
