import { afterAll, beforeAll, expect, test } from 'vitest';
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
const processes: UpstreamProcess[] = [];
let dataDir: string;

beforeAll(async () => {
  if (!databaseUrl) return;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstream-shared-'));
  const env = { DATABASE_URL: url.toString(), DATA_DIR: dataDir, DEMO_DATA: 'true', RATE_LIMIT_PER_ACCOUNT: '4', RATE_LIMIT_PER_IP: '1000' };
  // One after the other: the first migrates and seeds, the second finds the data.
  processes.push(await startUpstreamProcess(env));
  processes.push(await startUpstreamProcess(env));
}, 60_000);

afterAll(async () => {
  if (!databaseUrl) return;
  await Promise.all(processes.map((p) => p.stop()));
  rmSync(dataDir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
});

const login = (target: UpstreamProcess, password: string) =>
  fetch(`${target.url}/v2/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'coach@example.org', password }),
  }).then((res) => res.status);

test.skipIf(!databaseUrl)(
  'two upstream processes on one PostgreSQL database share one password-attempt count',
  async () => {
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
