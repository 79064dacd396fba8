import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UPSTREAM_NODE_FLAGS } from '../server/shared/upstream-flags.ts';
import { ms, row, within } from './bench-report.ts';

/*
 * No coach slows another: while one coach runs 10 parallel worst-case filters (the costliest the filter limits
 * still allow), another coach's GET /v2/auth/me is timed, p50 and p99, before the load and during it.
 *
 *   npm run bench -- --only=fairness                  (part of the bench table; exit 1 over budget)
 *   node scripts/bench-fairness.ts [--patients=20000] [--root=/path/of/another/checkout] [--database-url=postgres://...]
 *
 * --root runs that checkout's upstream on the same seeded data (to measure a version before a change).
 */
const ROOT = resolve(import.meta.dirname, '..');
const PASSWORD = 'Demo-Passwort-1';
/** Budget: another coach's GET /auth/me at the 99th percentile while the heavy filters run. */
export const FAIRNESS_P99_BUDGET_MS = 100;
const PARALLEL = 10;
const PROBES = 300;

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/**
 * The costliest filter within every limit that fits in the request head (Node takes 16 KB): an or-tree 4 deep
 * (the limit) of `like` conditions on the name fields, each pattern distinct and with 8 wildcards (the limit),
 * so no condition folds into another and every row is compared with every pattern.
 */
export function worstCaseFilter(): string {
  const leaf = (i: number) => {
    const letters = i.toString(36).padStart(3, 'a');
    return { [i % 2 ? 'lastName' : 'firstName']: { like: `%${letters[0]}%${letters[1]}%${letters[2]}%e%n%r%` } };
  };
  const group = (list: unknown[], size: number) =>
    Array.from({ length: Math.ceil(list.length / size) }, (_, i) => ({ or: list.slice(i * size, i * size + size) }));
  // Only % is encoded by hand: the JSON as a script would send it; fetch encodes the quotes.
  const encoded = (leaves: number) =>
    new URL(
      `http://x/?filter=${JSON.stringify({
        where: {
          or: group(
            group(
              group(
                Array.from({ length: leaves }, (_, i) => leaf(i)),
                4,
              ),
              4,
            ),
            4,
          ),
        },
        limit: 50,
      }).replace(/%/g, '%25')}`,
    ).search.slice(8);
  let leaves = 256;
  while (encoded(leaves).length > 15_000) leaves -= 8;
  return encoded(leaves);
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function login(url: string, email: string): Promise<string> {
  const response = await fetch(`${url}/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!response.ok) throw new Error(`login as ${email} answered ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

/** Sequential GET /auth/me of one coach, 10 ms apart: the latencies in ms, sorted, and how many failed. */
async function probe(url: string, token: string, count: number): Promise<number[] & { failed?: number }> {
  const times: number[] & { failed?: number } = [];
  let failed = 0;
  // At most a minute: a server whose event loop is blocked answers every few seconds.
  const until = performance.now() + 60_000;
  for (let i = 0; i < count && performance.now() < until; i++) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/v2/auth/me`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
      await response.arrayBuffer();
      if (!response.ok) failed++;
    } catch {
      failed++;
    }
    times.push(performance.now() - started);
    await new Promise((done) => setTimeout(done, 10));
  }
  times.sort((a, b) => a - b);
  times.failed = failed;
  return times;
}

interface HeavyRun {
  statuses: Map<number, number>;
  times: number[];
}

/** PARALLEL loops of the worst-case filter by one coach until `stop` resolves. */
async function heavyLoad(url: string, token: string, stop: Promise<void>): Promise<HeavyRun> {
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  const run: HeavyRun = { statuses: new Map(), times: [] };
  const filter = worstCaseFilter();
  const loop = async () => {
    while (!stopped) {
      const started = performance.now();
      let status = 0;
      try {
        const response = await fetch(`${url}/v2/patients?filter=${filter}`, { headers: { authorization: `Bearer ${token}` } });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        // A connection the server dropped: counted as status 0.
      }
      run.times.push(performance.now() - started);
      run.statuses.set(status, (run.statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, loop));
  run.times.sort((a, b) => a - b);
  return run;
}

function startUpstream(root: string, dataDir: string, databaseUrl?: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [...UPSTREAM_NODE_FLAGS, join(root, 'server', 'upstream', 'main.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'production',
      UPSTREAM_PORT: '0',
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
      LOG_LEVEL: 'warn',
      // The gateway's limits are not what is measured here.
      RATE_LIMIT_PER_IP: '100000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error('the upstream did not start within 60 s')), 60_000);
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message?.type !== 'listening') return;
      clearTimeout(timer);
      done({ url: `http://127.0.0.1:${message.port}`, stop: () => child.kill('SIGKILL') });
    });
    child.once('exit', (code) => fail(new Error(`the upstream exited (${code}) before listening`)));
  });
}

/** One database: seeded once, then the probe alone and under the heavy load. */
async function measure(label: string, root: string, dataDir: string, databaseUrl?: string): Promise<void> {
  const upstream = await startUpstream(root, dataDir, databaseUrl);
  try {
    const heavy = await login(upstream.url, 'admin@example.org');
    const other = await login(upstream.url, 'coach@example.org');
    const idle = await probe(upstream.url, other, PROBES / 3);
    let stop!: () => void;
    const stopped = new Promise<void>((done) => {
      stop = done;
    });
    const load = heavyLoad(upstream.url, heavy, stopped);
    await new Promise((done) => setTimeout(done, 500));
    const busy = await probe(upstream.url, other, PROBES);
    stop();
    const run = await load;
    const statuses = [...run.statuses].map(([status, n]) => `${n}× ${status}`).join(', ');
    row(`Fairness ${label}: GET /auth/me alone, p50 / p99`, `${ms(quantile(idle, 0.5))} / ${ms(quantile(idle, 0.99))}`, `${idle.length} requests`);
    row(
      `Fairness ${label}: GET /auth/me during ${PARALLEL} parallel worst-case filters, p50 / p99`,
      `${ms(quantile(busy, 0.5))} / ${ms(quantile(busy, 0.99))}`,
      `budget p99 ${FAIRNESS_P99_BUDGET_MS} ms; ${busy.length} requests, ${busy.failed} failed`,
    );
    row(`Fairness ${label}: the worst-case filters, p50 / p99`, `${ms(quantile(run.times, 0.5))} / ${ms(quantile(run.times, 0.99))}`, statuses);
    within(`fairness ${label}: another coach's GET /auth/me p99 (ms)`, Math.round(quantile(busy, 0.99)), FAIRNESS_P99_BUDGET_MS);
    within(`fairness ${label}: another coach's GET /auth/me failed`, busy.failed ?? 0, 0);
  } finally {
    upstream.stop();
  }
}

function seed(dataDir: string, patients: number, databaseUrl?: string): void {
  const env = { ...process.env, DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  if (!databaseUrl) delete env.DATABASE_URL;
  const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', join(ROOT, 'scripts', 'seed.ts'), '--patients', String(patients)], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`seeding ${patients} patients failed`);
}

/** SQLite always; PostgreSQL too when --database-url (or FAIRNESS_DATABASE_URL) names a fresh database. */
export async function benchFairness(options: { patients?: number; root?: string; databaseUrl?: string } = {}): Promise<void> {
  const patients = options.patients ?? 20_000;
  const root = options.root ?? ROOT;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-fairness-'));
  try {
    seed(dataDir, patients);
    await measure(`SQLite ${patients.toLocaleString('en')} patients`, root, dataDir);
    if (options.databaseUrl) {
      seed(dataDir, patients, options.databaseUrl);
      await measure(`PostgreSQL ${patients.toLocaleString('en')} patients`, root, dataDir, options.databaseUrl);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { broken, printTable } = await import('./bench-report.ts');
  await benchFairness({
    patients: arg('patients') ? Number(arg('patients')) : undefined,
    root: arg('root'),
    databaseUrl: arg('database-url') ?? process.env.FAIRNESS_DATABASE_URL,
  });
  printTable();
  if (broken.length > 0) {
    console.error(`\n${broken.length} budget(s) broken:\n  ${broken.join('\n  ')}`);
    process.exitCode = 1;
  }
}
