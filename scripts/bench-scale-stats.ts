/**
 * `npm run bench -- --only=scale-stats` (or alone: `npx node scripts/bench-scale-stats.ts`): what the statistics
 * and the detail export cost the upstream at a real instance's size. Seeds 10,000 and 100,000 patients
 * (`npm run seed`) on SQLite and on PostgreSQL, starts one upstream per database, and measures - interleaved
 * rounds, medians - the server's CPU per request (scripts/process-cpu.ts: the upstream with its SQLite readers,
 * and on PostgreSQL the backends serving it, shown apart too) for the summary, the daily series and a page of the
 * detail table in each of its orders, plus a whole export of the detail table as the client runs it (pages of 200,
 * a period of 731 days): wall time, CPU and how far the process's resident memory rose above what it held before
 * (its peak during the export). Budgets: 100k at most 1.5x the CPU of 10k, a detail page at most 20 ms, the
 * export under 10 s with at most 64 MB more memory.
 *
 * Environment: BENCH_STATS_SIZES (default 10000,100000), BENCH_STATS_ROUNDS (3), BENCH_STATS_DATABASES
 * (sqlite,postgres), BENCH_DATABASE_URL (a PostgreSQL user with CREATEDB; default the local dev role).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { UPSTREAM_NODE_FLAGS } from '../server/shared/upstream-flags.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { broken, ms, printTable, row, within } from './bench-report.ts';
import { processCpuMs, processTreeCpuMs } from './process-cpu.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SIZES = (process.env.BENCH_STATS_SIZES ?? '10000,100000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_STATS_ROUNDS ?? 3);
const DATABASES = (process.env.BENCH_STATS_DATABASES ?? 'sqlite,postgres').split(',') as Kind[];
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://dev:devpass@127.0.0.1:5432/postgres';
/** Below this, CPU per request is too small for a ratio to mean anything (a ratio then cannot fail). */
const RATIO_FLOOR_MS = 0.25;
const RATIO_BUDGET = 1.5;
const DETAIL_PAGE_BUDGET_MS = 20;
const EXPORT_BUDGET_MS = 10_000;
const EXPORT_MEMORY_BUDGET = 64 * 1024 * 1024;
/** An export that has not finished by then is stopped and reported as such (the old code needed ~40 min). */
const EXPORT_CUTOFF_MS = 120_000;

type Kind = 'sqlite' | 'postgres';
interface Instance {
  kind: Kind;
  size: number;
  dataDir: string;
  database?: string;
  url?: string;
  child?: ChildProcess;
  origin?: string;
  token?: string;
  /** The end of the upstream's error output, shown when a call fails. */
  log?: string;
}

const pgUrl = (database: string) => {
  const url = new URL(PG_URL);
  url.pathname = `/${database}`;
  return url.toString();
};

function run(command: string[], env: Record<string, string>): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, command, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr?.on('data', (chunk) => {
      err = (err + chunk).slice(-4000);
    });
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`${command.join(' ')} exited ${code}: ${err}`))));
  });
}

function databaseEnv(instance: Instance): Record<string, string> {
  return { DATA_DIR: instance.dataDir, ...(instance.url ? { DATABASE_URL: instance.url } : {}) };
}

async function seed(instance: Instance): Promise<void> {
  const started = Date.now();
  await run([join(ROOT, 'scripts', 'seed.ts'), '--patients', String(instance.size)], databaseEnv(instance));
  process.stderr.write(`  seeded ${instance.kind} with ${instance.size} patients in ${Date.now() - started} ms\n`);
}

async function start(instance: Instance): Promise<void> {
  const child = spawn(process.execPath, [...UPSTREAM_NODE_FLAGS, join(ROOT, 'server', 'upstream', 'main.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'production',
      UPSTREAM_PORT: '0',
      LOG_LEVEL: 'warn',
      ...databaseEnv(instance),
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  instance.child = child;
  child.stderr?.on('data', (chunk) => {
    instance.log = `${instance.log ?? ''}${chunk}`.slice(-4000);
  });
  const port = await new Promise<number>((done, fail) => {
    child.on('message', (m: { type?: string; port?: number }) => m?.type === 'listening' && done(Number(m.port)));
    child.once('exit', (code) => fail(new Error(`upstream exited ${code}`)));
  });
  instance.origin = `http://127.0.0.1:${port}`;
  const login = await fetch(`${instance.origin}/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.org', password: 'Demo-Passwort-1' }),
  });
  instance.token = ((await login.json()) as { id: string }).id;
}

/** Resident memory now (VmRSS) or at its peak (VmHWM), in bytes. */
function memory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/**
 * Sets the process's peak resident memory to what it holds now (Linux: 5 into clear_refs), so the peak read after a
 * run is the run's own, not the start-up's (migrations and the first detail call peak at about 200 MB on 100,000
 * patients, above anything an export reached, which hid its growth).
 */
function resetPeakMemory(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** CPU of the PostgreSQL backends serving an instance's connections (not autovacuum, which runs when it likes). */
async function databaseCpu(admin: pg.Client | null, instance: Instance): Promise<number> {
  if (!admin || !instance.database) return 0;
  const { rows } = await admin.query("select pid from pg_stat_activity where datname = $1 and backend_type = 'client backend'", [instance.database]);
  let total = 0;
  for (const { pid } of rows) {
    try {
      total += processCpuMs(Number(pid));
    } catch {
      // A backend that ended meanwhile.
    }
  }
  return total;
}

const query = (values: Record<string, unknown>) => new URLSearchParams(Object.entries(values).map(([k, v]) => [k, JSON.stringify(v)])).toString();

async function call(instance: Instance, path: string): Promise<Response> {
  const response = await fetch(`${instance.origin}/v2/statistics/${path}`, { headers: { Authorization: `Bearer ${instance.token}` } });
  if (!response.ok) throw new Error(`${label(instance)}: ${path} answered ${response.status}: ${await response.text()}\n${instance.log ?? ''}`);
  return response;
}

const CALLS: Record<string, string> = {
  summary: 'patient-statistics',
  daily: 'daily-patients-in-aftercare',
  'detail page': `patient-detail-statistics?${query({ order: 'lastName ASC', limit: 25 })}`,
  'detail page 5,000 rows in': `patient-detail-statistics?${query({ order: 'lastName ASC', limit: 25, skip: 5000 })}`,
  // The table's other orders, as its column headers ask for them.
  'detail page by first name': `patient-detail-statistics?${query({ order: 'firstName ASC', limit: 25 })}`,
  'detail page by end of aftercare, latest first': `patient-detail-statistics?${query({ order: 'aftercareEnd DESC', limit: 25 })}`,
  'detail page by last data': `patient-detail-statistics?${query({ order: 'lastDataAt ASC', limit: 25 })}`,
  'detail page by status': `patient-detail-statistics?${query({ order: 'status ASC', limit: 25 })}`,
  'detail page by status, completed first': `patient-detail-statistics?${query({ order: 'status DESC', limit: 25 })}`,
  'detail page by calls, most first': `patient-detail-statistics?${query({ order: 'phoneCoachings DESC', limit: 25 })}`,
  'detail page by day-evaluations, most first': `patient-detail-statistics?${query({ order: 'dayEvaluations DESC', limit: 25 })}`,
  'detail page by days in aftercare, most first': `patient-detail-statistics?${query({ order: 'daysInAftercare DESC', limit: 25 })}`,
  'detail page by days in aftercare, fewest first': `patient-detail-statistics?${query({ order: 'daysInAftercare ASC', limit: 25 })}`,
  'detail page by minutes, most first': `patient-detail-statistics?${query({ order: 'phoneCoachingMinutes DESC', limit: 25 })}`,
  'detail page by coach': `patient-detail-statistics?${query({ order: 'primaryCoachName ASC', limit: 25 })}`,
};

/** Upstream and database CPU per request: requests until 1 s of CPU or 200 requests, at least 3. */
async function cpuPerRequest(admin: pg.Client | null, instance: Instance, path: string) {
  const pid = instance.child?.pid as number;
  for (let i = 0; i < 2; i++) await (await call(instance, path)).arrayBuffer();
  const [cpu0, db0] = [processTreeCpuMs(pid), await databaseCpu(admin, instance)];
  let n = 0;
  while (n < 3 || (n < 200 && processTreeCpuMs(pid) - cpu0 < 1000)) {
    await (await call(instance, path)).arrayBuffer();
    n++;
  }
  return { upstream: (processTreeCpuMs(pid) - cpu0) / n, database: ((await databaseCpu(admin, instance)) - db0) / n };
}

/** The detail export as the client runs it: pages of 200 until X-Total-Count rows have come. */
async function exportRun(instance: Instance, today: string) {
  const pid = instance.child?.pid as number;
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - 730 * 86_400_000).toISOString().slice(0, 10);
  resetPeakMemory(pid);
  const [cpu0, memory0, started] = [processTreeCpuMs(pid), memory(pid, 'VmRSS'), Date.now()];
  let rows = 0;
  let total = Number.POSITIVE_INFINITY;
  while (rows < total && Date.now() - started < EXPORT_CUTOFF_MS) {
    const response = await call(instance, `patient-detail-statistics?${query({ from, to: today, order: 'lastName ASC', limit: 200, skip: rows })}`);
    total = Number(response.headers.get('x-total-count'));
    const page = (await response.json()) as unknown[];
    if (page.length === 0) break;
    rows += page.length;
  }
  return { rows, total, wallMs: Date.now() - started, cpuMs: processTreeCpuMs(pid) - cpu0, memoryGrowth: memory(pid, 'VmHWM') - memory0 };
}

/**
 * A running instance's steady state before measuring: the first detail call stores every patient's row id, and on
 * PostgreSQL a VACUUM ANALYZE does what autovacuum would do soon after a bulk load (statistics, visibility map).
 */
async function settle(instance: Instance): Promise<void> {
  await (await call(instance, `patient-detail-statistics?${query({ limit: 1 })}`)).arrayBuffer();
  if (!instance.url) return;
  const client = new pg.Client({ connectionString: instance.url });
  await client.connect();
  try {
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const label = (instance: Instance) => `${instance.kind} ${instance.size / 1000}k`;

async function measure(instances: Instance[], admin: pg.Client | null): Promise<void> {
  const samples = new Map<string, { upstream: number[]; database: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    process.stderr.write(`  round ${round + 1} of ${ROUNDS}\n`);
    for (const [name, path] of Object.entries(CALLS)) {
      for (const instance of instances) {
        const key = `${name}|${label(instance)}`;
        const sample = await cpuPerRequest(admin, instance, path);
        const kept = samples.get(key) ?? { upstream: [], database: [] };
        kept.upstream.push(sample.upstream);
        kept.database.push(sample.database);
        samples.set(key, kept);
      }
    }
  }
  const figure = (name: string, instance: Instance) => {
    const kept = samples.get(`${name}|${label(instance)}`) as { upstream: number[]; database: number[] };
    return { upstream: median(kept.upstream), database: median(kept.database) };
  };
  for (const name of Object.keys(CALLS)) {
    for (const kind of DATABASES) {
      const [small, large] = [SIZES[0], SIZES.at(-1)].map((size) => instances.find((i) => i.kind === kind && i.size === size) as Instance);
      const [a, b] = [figure(name, small), figure(name, large)];
      // Server CPU: the upstream with its SQLite readers, and on PostgreSQL the backends serving it.
      const [serverA, serverB] = [a.upstream + a.database, b.upstream + b.database];
      const ratio = serverB / Math.max(serverA, RATIO_FLOOR_MS);
      const db = kind === 'postgres' ? `; of it PostgreSQL backends ${a.database.toFixed(1)} -> ${b.database.toFixed(1)} ms` : '';
      row(
        `Statistics ${name}, ${kind}: server CPU per request ${label(small)} -> ${label(large)}`,
        `${serverA.toFixed(1)} -> ${serverB.toFixed(1)} ms`,
        `x${ratio.toFixed(2)} (budget x${RATIO_BUDGET})${db}`,
      );
      within(`statistics ${name} ${kind}: CPU ratio ${label(large)}/${label(small)}`, Number(ratio.toFixed(2)), RATIO_BUDGET);
      if (name.startsWith('detail page')) within(`statistics ${name} ${kind} ${label(large)}: CPU ms`, Number(serverB.toFixed(1)), DETAIL_PAGE_BUDGET_MS);
    }
  }
}

async function exports(instances: Instance[]): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  for (const instance of instances) {
    const result = await exportRun(instance, today);
    const finished = result.rows >= result.total;
    row(
      `Detail export (731 days, pages of 200), ${label(instance)}`,
      finished ? ms(result.wallMs) : `stopped after ${ms(result.wallMs)}`,
      `${result.rows} of ${result.total} rows; upstream CPU ${ms(result.cpuMs)}; peak memory +${mb(result.memoryGrowth)}`,
    );
    if (instance.size === SIZES.at(-1)) {
      within(`detail export ${label(instance)}: wall ms`, finished ? result.wallMs : Number.POSITIVE_INFINITY, EXPORT_BUDGET_MS);
      within(`detail export ${label(instance)}: peak memory growth MB`, Math.round(result.memoryGrowth / 1024 / 1024), EXPORT_MEMORY_BUDGET / 1024 / 1024);
    }
  }
}

export async function benchScaleStats(): Promise<void> {
  const tag = Math.random().toString(36).slice(2, 8);
  const admin = DATABASES.includes('postgres') ? new pg.Client({ connectionString: PG_URL }) : null;
  await admin?.connect();
  const instances: Instance[] = [];
  try {
    for (const kind of DATABASES) {
      for (const size of SIZES) {
        const instance: Instance = { kind, size, dataDir: mkdtempSync(join(tmpdir(), 'bench-scale-stats-')) };
        if (kind === 'postgres') {
          instance.database = `scale_stats_bench_${tag}_${size}`;
          await admin?.query(`create database ${instance.database} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`);
          instance.url = pgUrl(instance.database);
        }
        instances.push(instance);
        await seed(instance);
        await start(instance);
        await settle(instance);
      }
    }
    await measure(instances, admin);
    await exports(instances);
  } finally {
    for (const instance of instances) {
      instance.child?.kill('SIGTERM');
      if (instance.child && instance.child.exitCode === null) await new Promise((done) => instance.child?.once('exit', done));
      rmSync(instance.dataDir, { recursive: true, force: true });
      if (instance.database) await admin?.query(`drop database if exists ${instance.database}`);
    }
    await admin?.end();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  benchScaleStats()
    .then(() => {
      console.log('');
      printTable();
      if (broken.length > 0) {
        console.error(`\n${broken.length} budget(s) broken:\n  ${broken.join('\n  ')}`);
        process.exitCode = 1;
      }
    })
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    });
}
