import { test as baseTest, describe, expect } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_PASSWORD, rawRequest, startStack } from '../../helpers/gateway-stack.ts';
import type { Stack } from '../../helpers/gateway-stack.ts';
import { xsrfPairOf } from '../../helpers/xsrf-pair.ts';

/*
 * Account takeover with one request, as the issue found it: `POST /v2/auth/forgot-password` with a forged Host (or
 * X-Forwarded-Host) made the reset mail link to the attacker's site with a valid token. Against the real gateway
 * and its built-in upstream, reading the outbox the upstream writes: every answer is a 400, or a mail whose link
 * points at PUBLIC_URL (or, without it, at the http://localhost:PORT the gateway logged at start-up).
 */

/** `start(env)`: a stack (startStack) of the test's own, stopped when the test ends. */
// biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
const test = baseTest.extend('start', ({}, { onCleanup }) => {
  const started: Stack[] = [];
  onCleanup(async () => {
    for (const stack of started) await stack.stop();
  });
  return async (env?: Record<string, string>): Promise<Stack> => {
    const stack = await startStack(env);
    started.push(stack);
    return stack;
  };
});

interface Answer {
  status: number;
  json: Record<string, unknown> | undefined;
  cookies: string[];
}

async function call(port: number, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const lines = Object.entries({
    ...headers,
    ...(body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) }),
  });
  const answer = await rawRequest(
    port,
    `${method} ${path} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}Connection: close\r\n\r\n${payload}`,
    5000,
    method,
  );
  const text = answer.body.toString('utf8');
  return { status: answer.status, json: text.startsWith('{') ? JSON.parse(text) : undefined, cookies: answer.headers['set-cookie'] ?? [] };
}

/** A browser's XSRF cookie pair from a page load on `host`, as headers for a write. */
async function xsrfHeaders(port: number, host: string): Promise<Record<string, string>> {
  const page = await call(port, 'GET', '/login', { Host: host });
  expect(page.status).toBe(200);
  const { cookie, token } = xsrfPairOf(page.cookies);
  return { Cookie: cookie, 'X-XSRF-TOKEN': token };
}

/** The links in every mail the built-in upstream wrote to its outbox. */
function mailedLinks(dataDir: string): string[] {
  const outbox = join(dataDir, 'outbox');
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox)
    .filter((name) => name.endsWith('.eml'))
    .flatMap((name) => readFileSync(join(outbox, name), 'utf8').match(/https?:\/\/\S+/g) ?? []);
}

const forgot = (port: number, headers: Record<string, string>) => call(port, 'POST', '/v2/auth/forgot-password', headers, { email: 'coach@example.org' });

describe('without PUBLIC_URL (npm start)', () => {
  test('the gateway logs the origin it uses; a forged Host is refused, a forged X-Forwarded-Host changes nothing', async ({ start }) => {
    const stack = await start();
    const origin = `http://localhost:${stack.port}`;
    const warning = stack
      .stdout()
      .split('\n')
      .find((line) => line.includes('PUBLIC_URL is not set'));
    expect(JSON.parse(warning!)).toMatchObject({ level: 40, publicUrl: origin, msg: `PUBLIC_URL is not set: links in mails point to ${origin}` });

    const allowed = `127.0.0.1:${stack.port}`;
    const xsrf = await xsrfHeaders(stack.port, allowed);
    expect(await forgot(stack.port, { Host: 'attacker.example', ...xsrf })).toMatchObject({
      status: 400,
      json: { error: expect.objectContaining({ code: 'HOST_NOT_ALLOWED' }) },
    });
    expect(mailedLinks(stack.dataDir)).toEqual([]);

    const sent = await forgot(stack.port, { Host: allowed, 'X-Forwarded-Host': 'attacker.example', 'X-Forwarded-Proto': 'https', ...xsrf });
    expect(sent.status).toBe(204);
    await expect.poll(() => mailedLinks(stack.dataDir)).toHaveLength(1);
    expect(new URL(mailedLinks(stack.dataDir)[0]).origin).toBe(origin);
  }, 60_000);
});

describe('with PUBLIC_URL', () => {
  test('and TRUST_PROXY: a forged X-Forwarded-Host or Host is refused; reset and admin-triggered reset link to PUBLIC_URL', async ({ start }) => {
    const stack = await start({ PUBLIC_URL: 'https://coach.example.org', TRUST_PROXY: 'loopback' });
    const xsrf = await xsrfHeaders(stack.port, 'coach.example.org');
    const forged: Record<string, string>[] = [
      { Host: 'coach.example.org', 'X-Forwarded-Host': 'attacker.example' },
      { Host: 'attacker.example' },
      { Host: 'gateway.internal', 'X-Forwarded-Host': 'attacker.example, coach.example.org' },
    ];
    for (const headers of forged) {
      const refused = await forgot(stack.port, { ...headers, ...xsrf });
      expect(refused.status, JSON.stringify(headers)).toBe(400);
    }
    expect(mailedLinks(stack.dataDir)).toEqual([]);

    // Through the proxy as it should be: the proxy's own Host does not matter, the forwarded one is ours.
    expect((await forgot(stack.port, { Host: 'gateway.internal', 'X-Forwarded-Host': 'coach.example.org', 'X-Forwarded-Proto': 'http', ...xsrf })).status).toBe(
      204,
    );

    const login = await call(
      stack.port,
      'POST',
      '/v2/auth/login',
      { Host: 'coach.example.org', ...xsrf },
      { email: 'admin@example.org', password: DEMO_PASSWORD },
    );
    expect(login.status).toBe(200);
    const admin = { Host: 'coach.example.org', 'X-Forwarded-Host': 'coach.example.org', Authorization: `Bearer ${login.json!.id}`, ...xsrf };
    const coaches = await rawRequest(
      stack.port,
      `GET /v2/coaches HTTP/1.1\r\n${Object.entries(admin)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}Connection: close\r\n\r\n`,
    );
    const target = (JSON.parse(coaches.body.toString('utf8')) as { id: string; email: string }[]).find((c) => c.email === 'coach@example.org')!;
    expect((await call(stack.port, 'POST', `/v2/coaches/${target.id}/reset-password`, admin)).status).toBe(204);

    await expect.poll(() => mailedLinks(stack.dataDir)).toHaveLength(2);
    for (const link of mailedLinks(stack.dataDir)) expect(new URL(link).origin).toBe('https://coach.example.org');
  }, 60_000);

  test('without TRUST_PROXY: a forged X-Forwarded-Host on an allowed Host is ignored, the link points at PUBLIC_URL', async ({ start }) => {
    const stack = await start({ PUBLIC_URL: 'https://coach.example.org' });
    const xsrf = await xsrfHeaders(stack.port, 'coach.example.org');
    expect((await forgot(stack.port, { Host: 'attacker.example', ...xsrf })).status).toBe(400);
    expect((await forgot(stack.port, { Host: 'coach.example.org', 'X-Forwarded-Host': 'attacker.example', 'X-Forwarded-Proto': 'http', ...xsrf })).status).toBe(
      204,
    );
    await expect.poll(() => mailedLinks(stack.dataDir)).toHaveLength(1);
    expect(mailedLinks(stack.dataDir)[0]).toMatch(/^https:\/\/coach\.example\.org\/reset-password\?access_token=/);
  }, 60_000);
});
