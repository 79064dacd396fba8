import { afterEach, expect, test } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startUpstreamProcess, type UpstreamProcess } from '../../helpers/upstream-process.ts';

/*
 * Health data at rest is readable by its owner only: the data folder 0700, the database and its -wal/-shm 0600,
 * the outbox 0700 with mails 0600, whatever the umask of the shell that started the upstream (022 here, the
 * usual default that would make new files world-readable). SQLite: the child gets no DATABASE_URL.
 */
const started: UpstreamProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);

async function run(dataDir: string) {
  const upstream = await startUpstreamProcess(
    { DATA_DIR: dataDir, DEMO_DATA: 'false', ADMIN_EMAIL: 'chef@example.org', ADMIN_PASSWORD: 'Sehr-Geheim-1' },
    { umask: '022' },
  );
  started.push(upstream);
  // A write (the WAL grows) and a mail in the outbox.
  const login = await fetch(`${upstream.url}/v2/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'chef@example.org', password: 'Sehr-Geheim-1' }),
  });
  expect(login.status).toBe(200);
  const outbox = path.join(dataDir, 'outbox');
  const mailsBefore = existsSync(outbox) ? readdirSync(outbox).length : 0;
  const forgot = await fetch(`${upstream.url}/v2/auth/forgot-password`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'chef@example.org' }),
  });
  expect(forgot.status).toBe(204);
  // The mail is written after the answer.
  await expect.poll(() => existsSync(outbox) && readdirSync(outbox).length).toBeGreaterThan(mailsBefore);
  return upstream;
}

function expectPrivate(dataDir: string) {
  expect(mode(dataDir)).toBe('700');
  for (const name of ['upstream.sqlite', 'upstream.sqlite-wal', 'upstream.sqlite-shm']) expect(mode(path.join(dataDir, name)), name).toBe('600');
  const outbox = path.join(dataDir, 'outbox');
  expect(mode(outbox)).toBe('700');
  const mails = readdirSync(outbox);
  expect(mails.length).toBeGreaterThan(0);
  for (const mail of mails) expect(mode(path.join(outbox, mail)), mail).toBe('600');
}

test('with umask 022 a new data folder is 0700, the database files 0600, the outbox 0700 with mails 0600', async () => {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'upstream-rest-'));
  dirs.push(parent);
  const dataDir = path.join(parent, 'nested', 'data');
  await run(dataDir);
  expectPrivate(dataDir);
}, 30_000);

test('a data folder and database files that exist with looser modes are made private at start', async () => {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'upstream-rest-'));
  dirs.push(parent);
  const dataDir = path.join(parent, 'data');
  // A first run creates the database; then someone loosens the modes (a copy, a restore from a backup).
  const first = await run(dataDir);
  await first.stop();
  chmodSync(dataDir, 0o755);
  for (const name of readdirSync(dataDir)) if (name.startsWith('upstream.sqlite')) chmodSync(path.join(dataDir, name), 0o644);
  chmodSync(path.join(dataDir, 'outbox'), 0o755);
  mkdirSync(path.join(dataDir, 'extra'), { recursive: true });
  writeFileSync(path.join(dataDir, 'upstream.sqlite-shm'), '', { flag: 'a' });
  chmodSync(path.join(dataDir, 'upstream.sqlite-shm'), 0o644);
  await run(dataDir);
  expectPrivate(dataDir);
}, 30_000);
