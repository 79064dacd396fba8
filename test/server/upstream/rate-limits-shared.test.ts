import { test as baseTest, expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import pg from 'pg';
import { startUpstreamProcess, type UpstreamProcess } from '../../helpers/upstream-process.ts';

/*
 * Two upstream processes on one PostgreSQL database count password attempts in one place (rate-limiter-flexible's
 * PostgreSQL store): spreading guesses over the processes behind a load balancer gains nothing. Runs in
 * `npm run test:postgres`; skipped without DATABASE_URL.
 */
const databaseUrl = process.env.DATABASE_URL;
const schema = `rl_${randomBytes(6).toString('hex')}`;
/** Runs a statement on DATABASE_URL as its owner. */
async function asOwner(statement: string) {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(statement);
  await admin.end();
}

// `processes`: two upstreams on a schema of their own in DATABASE_URL, stopped and dropped after the test.
// biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
const test = baseTest.extend('processes', async ({}, { onCleanup }) => {
  const url = new URL(databaseUrl as string);
  await asOwner(`create schema ${schema}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstream-shared-'));
  const processes: UpstreamProcess[] = [];
  onCleanup(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    rmSync(dataDir, { recursive: true, force: true });
    await asOwner(`drop schema if exists ${schema} cascade`);
  });
  url.searchParams.set('options', `-c search_path=${schema}`);
  const env = { DATABASE_URL: url.toString(), DATA_DIR: dataDir, DEMO_DATA: 'true', RATE_LIMIT_PER_ACCOUNT: '4', RATE_LIMIT_PER_IP: '1000' };
  // One after the other: the first migrates and seeds, the second finds the data.
  processes.push(await startUpstreamProcess(env));
  processes.push(await startUpstreamProcess(env));
  return processes;
});

const login = (target: UpstreamProcess, password: string) =>
  fetch(`${target.url}/v2/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'coach@example.org', password }),
  }).then((res) => res.status);

test.skipIf(!databaseUrl)(
  'two upstream processes on one PostgreSQL database share one password-attempt count',
  async ({ processes }) => {
    const [a, b] = processes;
    const statuses: number[] = [];
    // Alternating between the processes: with a count per process each would allow 4, together 8.
    for (let i = 0; i < 8; i++) statuses.push(await login(i % 2 === 0 ? a : b, 'falsch-falsch'));
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
    expect(await login(a, 'Demo-Passwort-1')).toBe(429);
    expect(await login(b, 'Demo-Passwort-1')).toBe(429);
  },
  60_000,
);
