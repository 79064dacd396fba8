/**
 * `npm run bench:upstream`: what the built-in /v2 upstream costs. Seeds the demo instance plus 10,000
 * patients (all in the demo coach's care, so every page is an access-checked query over 10,000 rows),
 * starts the upstream process and a gateway in front of it, and prints login p50 and the p50/p99 of a
 * 50-patient page at 20 concurrent requests, direct and through the gateway. Needs a built client for
 * the gateway (npm run build).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openStorage } from '../server/upstream/db/index.ts';
import { prepareData } from '../server/upstream/seed/index.ts';
import { makePatients } from '../server/upstream/seed/demo.ts';
import { insertChunked } from '../server/upstream/db/insert-chunked.ts';
import { seededRandom } from '../server/upstream/seed/random.ts';
import { startServer, startUpstream } from '../test/helpers/e2e-server.ts';

const PATIENTS = 10_000;
const PAGE = 50;
const CONNECTIONS = 20;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const LOGINS = 20;
const body = JSON.stringify({ email: 'coach@example.org', password: 'Demo-Passwort-1' });

async function seed(dataDir: string) {
  const started = Date.now();
  const storage = await openStorage({ dataDir });
  await prepareData(storage.db, { demoData: true });
  const taken = (await storage.db.selectFrom('patients').select('patientCode').execute()).map((p) => p.patientCode);
  const patients = makePatients(seededRandom(7), new Date(), PATIENTS, ['coach-demo'], 'bench', taken);
  await storage.db.transaction().execute((trx) => insertChunked(trx, 'patients', patients as never));
  await storage.close();
  return Date.now() - started;
}

/** Cookies and header a browser would have after loading a page from the gateway (XSRF for POST). */
async function xsrfHeaders(origin: string): Promise<Record<string, string>> {
  const response = await fetch(`${origin}/login`);
  const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]);
  const token = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length);
  if (!token) throw new Error('the gateway set no XSRF-TOKEN cookie on /login');
  return { cookie: cookies.join('; '), 'x-xsrf-token': decodeURIComponent(token) };
}

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function measure(label: string, origin: string, extra: Record<string, string>) {
  const login = await run({
    url: `${origin}/v2/auth/login`,
    method: 'POST',
    connections: 1,
    amount: LOGINS,
    body,
    headers: { 'content-type': 'application/json', ...extra },
  });
  if (login.non2xx) throw new Error(`${label}: ${login.non2xx} logins failed`);
  const response = await fetch(`${origin}/v2/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', ...extra }, body });
  const token = ((await response.json()) as { id: string }).id;
  let n = 0;
  const page = await run({
    url: origin,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${token}` },
    requests: [
      {
        method: 'GET',
        // Walks the pages of the list as people would, sorted by name like the patient list.
        setupRequest: (req) => {
          const skip = ((n++ * 37) % (PATIENTS / PAGE)) * PAGE;
          const filter = JSON.stringify({ order: ['lastName ASC', 'firstName ASC', 'id ASC'], limit: PAGE, skip });
          return { ...req, path: `/v2/patients?filter=${encodeURIComponent(filter)}` };
        },
      },
    ],
  });
  if (page.non2xx) throw new Error(`${label}: ${page.non2xx} page requests failed`);
  return { label, loginP50: login.latency.p50, pageP50: page.latency.p50, pageP99: page.latency.p99, rps: page.requests.average, total: page.requests.total };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-upstream-'));
  const stops: (() => Promise<void>)[] = [];
  try {
    process.stderr.write(`seeding the demo instance and ${PATIENTS} patients ...\n`);
    const seedMs = await seed(dataDir);
    const big = '1000000';
    const upstream = await startUpstream(dataDir, { RATE_LIMIT_PER_IP: big, RATE_LIMIT_PER_ACCOUNT: big });
    stops.push(upstream.stop);
    const gateway = await startServer({ env: { UPSTREAM_URL: upstream.url } });
    stops.push(gateway.stop);
    process.stderr.write('measuring direct ...\n');
    const direct = await measure('direct (upstream)', upstream.url, {});
    process.stderr.write('measuring through the gateway ...\n');
    const proxied = await measure('through the gateway', gateway.baseUrl, await xsrfHeaders(gateway.baseUrl));
    console.log(
      `\nbuilt-in upstream, ${PATIENTS} patients (seeded in ${seedMs} ms), page = ${PAGE} patients sorted by last name, ${CONNECTIONS} concurrent, ${DURATION_S} s; login = ${LOGINS} sequential logins (scrypt)\n`,
    );
    console.log('| path | login p50 | page p50 | page p99 | pages/s |');
    console.log('|---|---|---|---|---|');
    for (const r of [direct, proxied]) {
      console.log(`| ${r.label} | ${r.loginP50} ms | ${r.pageP50} ms | ${r.pageP99} ms | ${Math.round(r.rps)} (${r.total} in all) |`);
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
