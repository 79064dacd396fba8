import { expect } from 'vitest';
import { DEMO_PASSWORD, Session } from './gateway-stack.ts';
import { stackTest } from './gateway-test.ts';
import type { RawAnswer, Stack } from './gateway-stack.ts';

/*
 * What an answer to a hostile request must be (test/server/hardening/hostile-input-*.test.ts): a well-formed HTTP
 * response, 4xx/5xx for everything malformed, the docs/contract.md#errors JSON error under /v2, no file outside
 * the served folders; and afterwards the same gateway, with its signed-in coach, still serving.
 */

/**
 * `stack`, the real gateway process with its built-in upstream (stackTest), and `session`, a coach signed in to it: both
 * for every test of a file.
 */
export const signedInStackTest = stackTest().extend('session', { scope: 'file' }, async ({ stack }) => {
  const session = new Session(stack.url);
  await session.login('coach@example.org', DEMO_PASSWORD);
  return session;
});

/** Stops the gateway: it must end on its own, with exit code 0. */
export async function expectCleanStop(stack: Stack): Promise<void> {
  const exit = await stack.stop();
  expect(exit).toEqual({ code: 0, signal: null });
}

// Text that would only appear if a file outside dist/public was served: package.json, tsconfig.json, server
// source, /etc/passwd, the upstream's database.
const LEAKS = [/"name":\s*"coach-portal"/, /"compilerOptions"/, /EnvSchema/, /root:x:0:0/, /SQLite format 3/, /createApp\(/];

export function expectNoLeak(answer: RawAnswer, label: string): void {
  const text = answer.raw.toString('latin1');
  for (const leak of LEAKS) expect(text, `${label} leaked ${leak}`).not.toMatch(leak);
}

export function expectCleanError(answer: RawAnswer, label: string, status?: number): void {
  expect(answer.outcome, `${label}: ${answer.statusLine}`).toBe('answered');
  if (status) expect(answer.status, label).toBe(status);
  else {
    expect(answer.status, label).toBeGreaterThanOrEqual(400);
    expect(answer.status, label).toBeLessThan(600);
  }
  expectNoLeak(answer, label);
}

/** The /v2 error body of docs/contract.md#errors. */
export function expectJsonError(answer: RawAnswer, label: string): void {
  expect(answer.headers['content-type']?.[0], label).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body.toString('utf8'));
  expect(body.error.statusCode, label).toBe(answer.status);
  expect(typeof body.error.code, label).toBe('string');
  expect(typeof body.error.message, label).toBe('string');
}

/** The process is up, /healthz answers, and the signed-in coach's next normal request works. */
export async function expectStillServing(stack: Stack, session: Session): Promise<void> {
  expect(stack.child.exitCode).toBeNull();
  const health = await fetch(`${stack.url}/healthz`);
  expect(health.status).toBe(200);
  const me = await session.fetch('/v2/auth/me');
  expect(me.status).toBe(200);
}

/** Whether the gateway judges the target an API path (under /v2 as the URL resolves). */
export const isApi = (target: string) => {
  let path = target;
  try {
    path = new URL(`http://gateway${target}`).pathname;
  } catch {
    // Not parseable as a URL: judged as sent.
  }
  return path === '/v2' || path.startsWith('/v2/');
};

/** The bytes of a GET of `target` (sent as is) with the given header lines. */
export const rawGet = (target: string, headers: string[] = []) =>
  [`GET ${target} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...headers, '', ''].join('\r\n');
