import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { patientSearchWhere } from '../client/components/patient-search/search-where.ts';
import { processCpuMs, processTreeCpuMs } from './process-cpu.ts';
import { UPSTREAM_NODE_FLAGS } from '../server/shared/upstream-flags.ts';

/*
 * Server CPU per list call at 10,000 and 100,000 patients, SQLite and PostgreSQL side by side: every list call the
 * client makes for patients (coach and administrator, sorted, searched, filtered by coach, a deep page), comments
 * and the dashboard. Each size is seeded once per database with `npm run seed` into a temp folder (PostgreSQL: a
 * database of its own, dropped at the end); the four upstream processes run at the same time and are measured in
 * interleaved rounds, CPU (scripts/process-cpu.ts) of the upstream process and its SQLite reader processes plus, on PostgreSQL, of
 * the database's backends serving it (pg_stat_activity), so a busy machine slows all four alike.
 * `npm run bench -- --only=scale-lists`, or alone: `node scripts/bench-scale-lists.ts` (BENCH_ROUNDS, BENCH_REPEAT,
 * BENCH_DATABASE_URL). Exits non-zero when a budget fails.
 */

const SIZES = [10_000, 100_000] as const;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Requests per measurement, after one warm-up (scripts/process-cpu.ts reads the scheduler's nanoseconds). */
const REPEAT = Number(process.env.BENCH_REPEAT ?? 20);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://dev:devpass@127.0.0.1:5432/postgres';
const PASSWORD = 'Demo-Passwort-1';
const RATIO_BUDGET = 1.5;
const ROOT = path.resolve(import.meta.dirname, '..');

type Who = 'coach' | 'admin';
interface Call {
  name: string;
  who: Who;
  path: string;
  filter: Record<string, unknown>;
  /** Absolute budget in ms of CPU at 100k (both databases). */
  budget?: number;
}

const nameOrder = ['lastName ASC', 'firstName ASC', 'id ASC'];
const today = new Date().toISOString().slice(0, 10);
const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const active = { aftercareStart: { lte: today }, aftercareEnd: { gte: today } };
const inTwoWeeks = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
const search = (text: string) => patientSearchWhere(text) as Record<string, unknown>;

/** The client's list calls (client/features/patient/listQuery.ts, client/features/dashboard/), one row more than a page. */
const CALLS: Call[] = [
  { name: 'patients, coach: page of 50 by name', who: 'coach', path: '/v2/patients', filter: { order: nameOrder, limit: 51 }, budget: 5 },
  { name: 'patients, coach: page 4 by name', who: 'coach', path: '/v2/patients', filter: { order: nameOrder, limit: 51, skip: 150 }, budget: 5 },
  {
    name: 'patients, coach: by end of aftercare',
    who: 'coach',
    path: '/v2/patients',
    filter: { order: ['aftercareEnd DESC', 'lastName ASC', 'id ASC'], limit: 26 },
  },
  { name: 'patients, coach: name search', who: 'coach', path: '/v2/patients', filter: { where: search('mül'), order: nameOrder, limit: 26 }, budget: 10 },
  { name: 'patients, admin: page of 50 by name', who: 'admin', path: '/v2/patients', filter: { order: nameOrder, limit: 51 }, budget: 5 },
  { name: 'patients, admin: page 100 by name', who: 'admin', path: '/v2/patients', filter: { order: nameOrder, limit: 51, skip: 4950 } },
  { name: 'patients, admin: by last data', who: 'admin', path: '/v2/patients', filter: { order: ['lastDataAt DESC', 'lastName ASC', 'id ASC'], limit: 26 } },
  { name: 'patients, admin: by code', who: 'admin', path: '/v2/patients', filter: { order: ['patientCode ASC', 'lastName ASC', 'id ASC'], limit: 26 } },
  { name: 'patients, admin: name search', who: 'admin', path: '/v2/patients', filter: { where: search('mül'), order: nameOrder, limit: 26 }, budget: 10 },
  { name: 'patients, admin: search "sch"', who: 'admin', path: '/v2/patients', filter: { where: search('sch'), order: nameOrder, limit: 26 }, budget: 10 },
  { name: 'patients, admin: search "er"', who: 'admin', path: '/v2/patients', filter: { where: search('er'), order: nameOrder, limit: 26 }, budget: 10 },
  { name: 'patients, admin: search "meier"', who: 'admin', path: '/v2/patients', filter: { where: search('meier'), order: nameOrder, limit: 26 }, budget: 10 },
  { name: 'patients, admin: search "mar"', who: 'admin', path: '/v2/patients', filter: { where: search('mar'), order: nameOrder, limit: 26 }, budget: 10 },
  {
    name: 'patients, admin: search "müller"',
    who: 'admin',
    path: '/v2/patients',
    filter: { where: search('müller'), order: nameOrder, limit: 26 },
    budget: 10,
  },
  { name: 'patients, admin: search "oz"', who: 'admin', path: '/v2/patients', filter: { where: search('oz'), order: nameOrder, limit: 26 }, budget: 10 },
  {
    name: 'patients, admin: two-word search',
    who: 'admin',
    path: '/v2/patients',
    filter: { where: search('anna sch'), order: nameOrder, limit: 26 },
    budget: 10,
  },
  {
    name: 'patients, admin: coach filter',
    who: 'admin',
    path: '/v2/patients',
    filter: { where: { primaryCoachId: 'scale-coach-0002' }, order: nameOrder, limit: 26 },
  },
  // The list's filters beside another order (http/walk-or-sort.ts): "Letzte Daten" and status with a sort.
  {
    name: 'patients, admin: last data 2-7 days, by name',
    who: 'admin',
    path: '/v2/patients',
    filter: { where: { lastDataAt: { lt: ago(2), gte: ago(7) } }, order: nameOrder, limit: 26 },
  },
  {
    name: 'patients, admin: active, by code, page 3',
    who: 'admin',
    path: '/v2/patients',
    filter: {
      where: { and: [{ aftercareStart: { lte: today } }, { aftercareEnd: { gte: today } }] },
      order: ['patientCode DESC', 'lastName ASC', 'id ASC'],
      limit: 25,
      skip: 50,
    },
  },
  {
    name: 'patients, admin: last data 7-30 days, latest end',
    who: 'admin',
    path: '/v2/patients',
    filter: { where: { lastDataAt: { lt: ago(7), gte: ago(30) } }, order: ['aftercareEnd DESC', 'lastName ASC', 'id ASC'], limit: 25 },
  },
  { name: 'comments, coach: newest 5', who: 'coach', path: '/v2/comments', filter: { order: 'createdAt DESC', limit: 6 } },
  { name: 'comments, admin: newest 5', who: 'admin', path: '/v2/comments', filter: { order: 'createdAt DESC', limit: 6 } },
  { name: 'external comments, coach: newest 40', who: 'coach', path: '/v2/externalComments', filter: { order: 'createdAt DESC', limit: 41 } },
  {
    name: 'dashboard, coach: caseload',
    who: 'coach',
    path: '/v2/patients',
    filter: { where: active, order: ['lastDataAt ASC', 'lastName ASC', 'id ASC'], limit: 201 },
  },
  {
    name: 'dashboard, admin: caseload',
    who: 'admin',
    path: '/v2/patients',
    filter: { where: active, order: ['lastDataAt ASC', 'lastName ASC', 'id ASC'], limit: 201 },
  },
  {
    name: 'dashboard, admin: level count (limit 0)',
    who: 'admin',
    path: '/v2/patients',
    filter: { where: { and: [active, { lastDataAt: { lt: ago(2), gte: ago(7) } }] }, limit: 0 },
  },
  {
    name: 'dashboard, admin: attention',
    who: 'admin',
    path: '/v2/patients',
    filter: { where: { and: [active, { or: [{ lastDataAt: null }, { lastDataAt: { lt: ago(2) } }] }] }, order: ['lastDataAt ASC', 'lastName ASC'], limit: 101 },
  },
  {
    name: 'dashboard, admin: ending soon',
    who: 'admin',
    path: '/v2/patients',
    filter: {
      where: { aftercareStart: { lte: today }, aftercareEnd: { between: [today, inTwoWeeks] } },
      order: ['aftercareEnd ASC', 'lastName ASC'],
      limit: 11,
    },
  },
  {
    name: 'dashboard, coach: names of feed patients',
    who: 'coach',
    path: '/v2/patients',
    filter: { where: { id: { inq: ['scale-00001', 'scale-00002', 'scale-00003', 'pat-001', 'pat-002'] } }, limit: 5 },
  },
];

interface Target {
  label: string;
  size: number;
  dialect: 'sqlite' | 'postgres';
  env: Record<string, string>;
  /** PostgreSQL: the database, whose backends' CPU counts too. */
  database?: string;
  child?: ChildProcess;
  port?: number;
  tokens?: Record<Who, string>;
}

function seed(env: Record<string, string>, size: number): void {
  const started = Date.now();
  execFileSync('npm', ['run', '--silent', 'seed', '--', '--patients', String(size)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.stderr.write(`  seeded ${size} (${env.DATABASE_URL ? 'postgres' : 'sqlite'}) in ${Date.now() - started} ms\n`);
}

async function start(target: Target): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...target.env, DEMO_DATA: 'false', UPSTREAM_PORT: '0', LOG_LEVEL: 'warn', RATE_LIMIT_PER_IP: '100000' };
  if (!target.env.DATABASE_URL) delete env.DATABASE_URL;
  const child = fork(path.join(ROOT, 'server/upstream/main.ts'), [], {
    env,
    execArgv: [...UPSTREAM_NODE_FLAGS],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  target.child = child;
  target.port = await new Promise<number>((resolve, reject) => {
    child.on('message', (m: { type?: string; port?: number }) => m.type === 'listening' && resolve(m.port as number));
    child.on('exit', (code) => reject(new Error(`${target.label}: upstream exited with ${code}`)));
  });
  const login = async (email: string) => {
    const answer = await fetch(`http://127.0.0.1:${target.port}/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    if (!answer.ok) throw new Error(`${target.label}: login as ${email} answered ${answer.status}`);
    return `Bearer ${((await answer.json()) as { id: string }).id}`;
  };
  target.tokens = { coach: await login('coach-0001@scale.example.org'), admin: await login('admin@example.org') };
}

async function request(target: Target, call: Call): Promise<void> {
  const url = `http://127.0.0.1:${target.port}${call.path}?filter=${encodeURIComponent(JSON.stringify(call.filter))}`;
  const answer = await fetch(url, { headers: { authorization: target.tokens![call.who] } });
  if (!answer.ok) throw new Error(`${target.label} ${call.name}: ${answer.status} ${(await answer.text()).slice(0, 200)}`);
  await answer.arrayBuffer();
}

/** CPU used so far by the processes that serve a target: the upstream, and on PostgreSQL its database backends. */
async function serverCpu(target: Target, monitor: pg.Client): Promise<Map<number, number>> {
  const upstream = target.child!.pid!;
  const pids = [upstream];
  if (target.database) {
    const { rows } = await monitor.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [target.database]);
    pids.push(...rows.map((r) => r.pid));
  }
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      // The upstream with its SQLite reader processes; a PostgreSQL backend alone.
      cpu.set(pid, pid === upstream ? processTreeCpuMs(pid) : processCpuMs(pid));
    } catch {
      // A backend that ended meanwhile: its CPU is lost to the measurement (the pool keeps its connections open).
    }
  }
  return cpu;
}

/** CPU per request of one call on one target: `repeat` sequential requests after one warm-up. */
async function measure(target: Target, call: Call, monitor: pg.Client, repeat = REPEAT): Promise<number> {
  await request(target, call);
  const before = await serverCpu(target, monitor);
  for (let i = 0; i < repeat; i++) await request(target, call);
  const after = await serverCpu(target, monitor);
  let used = 0;
  for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
  return used / repeat;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function prepare(work: string, runId: string): Promise<{ targets: Target[]; databases: string[] }> {
  const targets: Target[] = [];
  const databases: string[] = [];
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    for (const size of SIZES) {
      const dataDir = path.join(work, `sqlite-${size}`);
      seed({ DATA_DIR: dataDir }, size);
      targets.push({ label: `sqlite ${size}`, size, dialect: 'sqlite', env: { DATA_DIR: dataDir } });
      const name = `i23_scale_lists_bench_${runId}_${size}`;
      await admin.query(`create database ${name}`);
      databases.push(name);
      const url = new URL(ADMIN_URL);
      url.pathname = `/${name}`;
      const env = { DATABASE_URL: url.toString(), DATA_DIR: path.join(work, `pg-${size}`) };
      seed(env, size);
      targets.push({ label: `postgres ${size}`, size, dialect: 'postgres', env, database: name });
    }
  } finally {
    await admin.end();
  }
  return { targets, databases };
}

async function dropDatabases(databases: string[]): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

function report(results: Map<string, number[]>): string[] {
  const failures: string[] = [];
  const cell = (n: number) => n.toFixed(2).padStart(7);
  console.log(
    `\nServer CPU per request (ms), medians of ${ROUNDS} interleaved rounds of ${REPEAT} requests; budgets: ratio 100k/10k <= ${RATIO_BUDGET}, absolute at 100k`,
  );
  console.log(
    `${'call'.padEnd(44)} | ${'sq 10k'.padStart(7)} ${'sq 100k'.padStart(7)} ${'ratio'.padStart(6)} | ${'pg 10k'.padStart(7)} ${'pg 100k'.padStart(7)} ${'ratio'.padStart(6)} | budget`,
  );
  for (const call of CALLS) {
    const parts: string[] = [];
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const [small, large] = SIZES.map((size) => median(results.get(`${dialect} ${size}|${call.name}`) ?? [Number.NaN]));
      // Below a millisecond a few hundred microseconds of anything (a collection, a cache miss) make the ratio; it
      // then cannot fail.
      const ratio = large / Math.max(small, 1);
      parts.push(`${cell(small)} ${cell(large)} ${ratio.toFixed(2).padStart(6)}`);
      if (ratio > RATIO_BUDGET) failures.push(`${call.name} on ${dialect}: ratio ${ratio.toFixed(2)} > ${RATIO_BUDGET}`);
      if (call.budget !== undefined && large > call.budget) failures.push(`${call.name} on ${dialect}: ${large.toFixed(2)} ms > ${call.budget} ms at 100k`);
    }
    console.log(`${call.name.padEnd(44)} | ${parts.join(' | ')} | ${call.budget === undefined ? '' : `${call.budget} ms`}`);
  }
  return failures;
}

/** Seeds, starts the four targets, measures `calls` in interleaved rounds and hands the medians' samples to `report`. */
async function onSeededTargets(calls: Call[], rounds: number, repeat: number, report: (results: Map<string, number[]>) => string[]): Promise<boolean> {
  const work = mkdtempSync(path.join(tmpdir(), 'bench-scale-lists-'));
  const runId = path
    .basename(work)
    .slice(-6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  let databases: string[] = [];
  let targets: Target[] = [];
  try {
    process.stderr.write('seeding 10,000 and 100,000 patients on SQLite and PostgreSQL ...\n');
    ({ targets, databases } = await prepare(work, runId));
    for (const target of targets) await start(target);
    const results = new Map<string, number[]>();
    const monitor = new pg.Client({ connectionString: ADMIN_URL });
    await monitor.connect();
    try {
      for (let round = 0; round < rounds; round++) {
        for (const call of calls) {
          for (const target of targets) {
            const key = `${target.label}|${call.name}`;
            results.set(key, [...(results.get(key) ?? []), await measure(target, call, monitor, repeat)]);
          }
        }
        process.stderr.write(`  round ${round + 1}/${rounds} done\n`);
      }
    } finally {
      await monitor.end();
    }
    const failures = report(results);
    for (const failure of failures) console.log(`BUDGET FAILED: ${failure}`);
    return failures.length === 0;
  } finally {
    for (const target of targets) target.child?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (databases.length) await dropDatabases(databases);
    rmSync(work, { recursive: true, force: true });
  }
}

export function benchScaleLists(): Promise<boolean> {
  return onSeededTargets(CALLS, ROUNDS, REPEAT, report);
}

/*
 * The list calls beyond the table above that a coach's and an administrator's patient list can make: every status
 * with every "Letzte Daten" level (and each alone) in every sort, and searches of one or two words in five orders
 * (by name, code, latest end of aftercare, last data either way). A report, not a budget: it lists the calls over RATIO_BUDGET with their figures, and how many.
 * `npm run bench -- --only=scale-matrix` (BENCH_MATRIX_ROUNDS, BENCH_MATRIX_REPEAT).
 */
const ENDING_SOON_DAYS = 14;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const STATUS: Record<string, Record<string, unknown>[]> = {
  planned: [{ aftercareStart: { gt: today } }],
  active: [{ aftercareStart: { lte: today } }, { aftercareEnd: { gte: today } }],
  ending: [{ aftercareStart: { lte: today } }, { aftercareEnd: { between: [today, day(ENDING_SOON_DAYS)] } }],
  completed: [{ aftercareEnd: { lt: today } }],
};
const LEVEL: Record<string, Record<string, unknown>> = {
  green: { lastDataAt: { gte: ago(2) } },
  yellow: { lastDataAt: { lt: ago(2), gte: ago(7) } },
  red: { lastDataAt: { lt: ago(7), gte: ago(30) } },
  grey: { or: [{ lastDataAt: null }, { lastDataAt: { lt: ago(30) } }] },
};
const SORTS: Record<string, string[]> = Object.fromEntries(
  ['lastName', 'patientCode', 'aftercareEnd', 'lastDataAt'].flatMap((field) =>
    (['ASC', 'DESC'] as const).map((dir) => [
      `${dir === 'DESC' ? '-' : ''}${field}`,
      field === 'lastName' ? [`lastName ${dir}`, `firstName ${dir}`, 'id ASC'] : [`${field} ${dir}`, 'lastName ASC', 'id ASC'],
    ]),
  ),
);

function matrixCalls(): Call[] {
  const calls: Call[] = [];
  const list = (who: Who, name: string, and: Record<string, unknown>[], order: string[]) =>
    calls.push({ name: `${who} ${name}`, who, path: '/v2/patients', filter: { ...(and.length ? { where: { and } } : {}), order, limit: 25 } });
  for (const who of ['coach', 'admin'] as Who[])
    for (const status of ['', ...Object.keys(STATUS)])
      for (const level of ['', ...Object.keys(LEVEL)])
        for (const [sort, order] of Object.entries(SORTS)) {
          if (!status && !level) continue;
          list(who, `${status || '-'} ${level || '-'} ${sort}`, [...(STATUS[status] ?? []), ...(level ? [LEVEL[level]] : [])], order);
        }
  for (const who of ['coach', 'admin'] as Who[])
    for (const text of ['a', 'zz', 'qu', 'oz', 'li', 'ja', 'mül', 'anna', 'k m'])
      for (const sort of ['lastName', 'patientCode', '-aftercareEnd', 'lastDataAt', '-lastDataAt']) list(who, `q=${text} ${sort}`, [search(text)], SORTS[sort]);
  return calls;
}

function reportMatrix(calls: Call[]): (results: Map<string, number[]>) => string[] {
  return (results) => {
    const over: string[] = [];
    const worst = { sqlite: 0, postgres: 0 };
    for (const call of calls) {
      const cells: string[] = [];
      let bad = false;
      for (const dialect of ['sqlite', 'postgres'] as const) {
        const [small, large] = SIZES.map((size) => median(results.get(`${dialect} ${size}|${call.name}`) ?? [Number.NaN]));
        const ratio = large / Math.max(small, 1);
        worst[dialect] = Math.max(worst[dialect], large);
        bad ||= ratio > RATIO_BUDGET;
        cells.push(`${small.toFixed(2).padStart(6)} ${large.toFixed(2).padStart(6)} x${ratio.toFixed(2)}`);
      }
      if (bad) over.push(`${call.name.padEnd(36)} | ${cells.join(' | ')}`);
    }
    console.log(`\nPatient lists beyond the table, server CPU per request (ms) at 10k and 100k: ${over.length} of ${calls.length} over ${RATIO_BUDGET}x`);
    console.log(`${'call'.padEnd(36)} | sqlite 10k 100k ratio | postgres 10k 100k ratio`);
    for (const line of over) console.log(line);
    console.log(`Slowest at 100k: SQLite ${worst.sqlite.toFixed(1)} ms, PostgreSQL ${worst.postgres.toFixed(1)} ms`);
    return [];
  };
}

/** The matrix above (a report: true unless it could not run). */
export function benchScaleMatrix(): Promise<boolean> {
  const calls = matrixCalls();
  return onSeededTargets(calls, Number(process.env.BENCH_MATRIX_ROUNDS ?? 3), Number(process.env.BENCH_MATRIX_REPEAT ?? 6), reportMatrix(calls));
}

if (import.meta.main) {
  benchScaleLists().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
