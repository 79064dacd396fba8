import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/helpers/e2e-chromium.ts';
import { median } from '../test/helpers/e2e-journey.ts';
import { NetworkRecorder, SLOW_3G, measureLoginScreen, physicalFloorMs } from '../test/helpers/e2e-measure.ts';
import { assertClientBuilt, startServer, startUpstream } from '../test/helpers/e2e-server.ts';
import { apiBytes, dashboardCalls as figureCalls, dayEvaluationReads, runJourney, screenShifts, screens, type JourneyRun } from './bench-journeys.ts';
import { benchPatientList } from './bench-patients.ts';
import { patientSearchWhere } from '../client/components/patient-search/search-where.ts';
import { broken, kb, ms, printTable, row, within } from './bench-report.ts';
import * as budget from './budgets.ts';
import { gatewayCost } from './bench-gateway.ts';
import { benchScaleLists, benchScaleMatrix } from './bench-scale-lists.ts';
import { lighthouseScores, staticAssets } from './bench-server.ts';
import { benchFairness } from './bench-fairness.ts';

/** `npm run bench -- --runs=5 --only=journeys,static`: repetitions of the timed journeys, and which parts to run. */
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = Number(arg('runs') ?? 3);
const ONLY = arg('only')?.split(',') ?? null;
const wanted = (part: string) => ONLY === null || ONLY.includes(part);

async function login(origin: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`login as ${email} answered ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

async function firstScreen(browser: Browser, origin: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const recorder = await NetworkRecorder.attach(await context.newCDPSession(page));
  const cold = await measureLoginScreen(page, recorder, `${origin}/login`);
  const encodings = [...new Set(cold.requests.filter((r) => r.bytes > 1000).map((r) => r.encoding))].join(', ');
  row('First screen /login: compressed response bodies', kb(cold.bodyBytes), `budget ${kb(budget.FIRST_SCREEN_BYTES)}; encodings: ${encodings}`);
  within('first screen bytes', cold.bodyBytes, budget.FIRST_SCREEN_BYTES);
  within('request chain before the login form is usable', cold.depth, budget.FIRST_SCREEN_CHAIN_DEPTH);
  within('requests before the login form is usable', cold.requests.length, budget.FIRST_SCREEN_REQUESTS);
  row('First screen /login: bytes on the wire (bodies + headers)', kb(cold.bytes), `${kb(cold.bytes - cold.bodyBytes)} of it HTTP headers`);
  row(
    'First screen /login: requests before the form is usable',
    String(cold.requests.length),
    `budget ${budget.FIRST_SCREEN_REQUESTS}; chain depth ${cold.depth}, budget ${budget.FIRST_SCREEN_CHAIN_DEPTH}; favicon ${cold.icon ? 'also fetched before (not counted)' : 'fetched later'}`,
  );

  // Repeat visit in the same context: a new page, so Chromium uses its normal cache rules (a reload would revalidate).
  const again = await context.newPage();
  const recorder2 = await NetworkRecorder.attach(await context.newCDPSession(again));
  const warm = await measureLoginScreen(again, recorder2, `${origin}/login`);
  const cached = warm.requests.filter((r) => r.fromCache).length;
  row('Repeat visit /login: bytes transferred', kb(warm.bytes), `${cached} of ${warm.requests.length} requests from cache`);
  await context.close();

  const slow = await browser.newContext();
  const slowPage = await slow.newPage();
  const cdp = await slow.newCDPSession(slowPage);
  await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
  const slowRecorder = await NetworkRecorder.attach(cdp);
  const throttled = await measureLoginScreen(slowPage, slowRecorder, `${origin}/login`);
  const floor = physicalFloorMs(throttled.bytes, throttled.depth);
  row('Slow 3G: navigation to usable login form', ms(throttled.usableMs), '400 kbit/s, 400 ms RTT');
  row(
    'Slow 3G: physical floor',
    ms(floor),
    `${kb(throttled.bytes)} / 50,000 B/s + ${throttled.depth + 1} round trips (connection + chain depth ${throttled.depth})`,
  );
  row('Slow 3G: ratio measured / floor', (throttled.usableMs / floor).toFixed(2), '1.00 = nothing left to gain');
  await slow.close();
}

const s1 = (value: number) => `${(value / 1000).toFixed(2)} s`;
const spread = (values: number[], format: (v: number) => string) => `median of ${values.length}: ${values.map(format).join(', ')}`;

/** Press "Anmelden" -> dashboard settled, then dashboard -> patient settled, RUNS cold runs, medians. */
async function journeys(browser: Browser, origin: string) {
  const runs: JourneyRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    process.stderr.write(`  journey run ${i + 1} of ${RUNS}\n`);
    runs.push(await runJourney(browser, origin));
  }
  const pick = (f: (run: JourneyRun) => number) => runs.map(f);
  const login = pick((r) => r.login.ms);
  row('Slow 3G: press "Anmelden" -> dashboard settled', s1(median(login)), `budget ${s1(budget.LOGIN_TO_DASHBOARD_MS)}; ${spread(login, s1)}`);
  within('press Anmelden -> dashboard settled (ms, median)', Math.round(median(login)), budget.LOGIN_TO_DASHBOARD_MS);
  const requests = pick((r) => r.login.requests.length);
  row(
    '  requests (cache hits included)',
    String(median(requests)),
    `budget ${budget.LOGIN_TO_DASHBOARD_REQUESTS}; over the network: ${median(pick((r) => r.login.networkRequests))}`,
  );
  within('press Anmelden -> dashboard settled: requests (most of any run)', Math.max(...requests), budget.LOGIN_TO_DASHBOARD_REQUESTS);
  row('  /v2 calls', String(median(pick((r) => r.login.api.length))), runs[0].login.api.map((r) => `${r.method} ${new URL(r.url).pathname}`).join(', '));
  const dashboardCalls = pick((r) => figureCalls(r.login).length);
  row(
    "  of them the dashboard's own",
    String(Math.max(...dashboardCalls)),
    `budget ${budget.DASHBOARD_CALLS} (the rest: sign-in, the shell's news and settings)`,
  );
  within('dashboard /v2 calls (most of any run)', Math.max(...dashboardCalls), budget.DASHBOARD_CALLS);
  const reads = pick((r) => dayEvaluationReads(r.login).length);
  row('  and its day-evaluation reads ("Mein Tag")', String(Math.max(...reads)), `budget ${budget.DAY_EVALUATION_READS}, after the dashboard has drawn`);
  within('dashboard day-evaluation reads (most of any run)', Math.max(...reads), budget.DAY_EVALUATION_READS);
  row('  bytes on the wire', kb(median(pick((r) => r.login.bytes))), '');
  const patient = pick((r) => r.patient.ms);
  row('Slow 3G: dashboard -> patient page settled', s1(median(patient)), `budget ${s1(budget.DASHBOARD_TO_PATIENT_MS)}; ${spread(patient, s1)}`);
  within('dashboard -> patient settled (ms, median)', Math.round(median(patient)), budget.DASHBOARD_TO_PATIENT_MS);
  row(
    '  requests (cache hits included)',
    String(median(pick((r) => r.patient.requests.length))),
    `over the network: ${median(pick((r) => r.patient.networkRequests))}`,
  );
  row('  /v2 calls', String(median(pick((r) => r.patient.api.length))), runs[0].patient.api.map((r) => `${r.method} ${new URL(r.url).pathname}`).join(', '));
  row('  bytes on the wire', kb(median(pick((r) => r.patient.bytes))), '');
  const api = apiBytes([runs[0].login, runs[0].patient]);
  row(
    '/v2 answers of both steps: bytes on the wire / decoded',
    `${kb(api.wire)} / ${kb(api.decoded)}`,
    `${api.compressed} of ${api.calls} answers compressed; ${api.large} of them over 1 KB decoded`,
  );
}

async function shifts(browser: Browser, origin: string, upstreamUrl: string) {
  // A patient of the coach's own caseload, so the coach's patient screens show data, not "not found".
  const token = await login(upstreamUrl, 'coach@example.org', 'Demo-Passwort-1');
  const patients = (await (
    await fetch(`${origin}/v2/patients?filter=${encodeURIComponent(JSON.stringify({ limit: 1, order: 'lastName ASC' }))}`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json()) as { id: string }[];
  const list = screens(patients[0].id);
  for (const width of [375, 1280]) {
    const results = await screenShifts(browser, origin, width, list);
    const worst = results.reduce((a, b) => (b.cls > a.cls ? b : a));
    within(`CLS at ${width} px (${worst.name})`, Number(worst.cls.toFixed(3)), budget.CLS);
    row(
      `CLS at ${width} px, worst of ${results.length} screens (Slow 3G)`,
      worst.cls.toFixed(3),
      `budget ${budget.CLS}; worst: ${worst.name}; ${
        results
          .filter((r) => r.cls > 0.001)
          .map((r) => `${r.name} ${r.cls.toFixed(3)}`)
          .join(', ') || 'no other shifts'
      }`,
    );
  }
}

/**
 * The patient list on an instance of its own: the demo data plus 5,000 patients from `npm run seed` (the API's own
 * rate limit rightly stops anyone creating thousands), searched for one patient's code.
 */
async function patientList(browser: Browser) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-list-'));
  execFileSync('npm', ['run', '--silent', 'seed', '--', '--patients', '5000'], { env: { ...process.env, DATA_DIR: dataDir }, stdio: 'ignore' });
  const upstream = await startUpstream(dataDir);
  const gateway = await startServer({ dataDir, env: { UPSTREAM_URL: upstream.url } });
  try {
    const token = await login(upstream.url, 'admin@example.org', 'Demo-Passwort-1');
    const filter = encodeURIComponent(JSON.stringify({ order: ['lastName ASC', 'firstName ASC'], skip: 4204, limit: 1 }));
    const answer = await fetch(`${upstream.url}/v2/patients?filter=${filter}`, { headers: { authorization: `Bearer ${token}` } });
    const [patient] = (await answer.json()) as { id: string; patientCode: string }[];
    // What the list's first page must show for that code: the same search, as the client asks for it.
    const search = encodeURIComponent(JSON.stringify({ where: patientSearchWhere(patient.patientCode), order: ['lastName ASC', 'firstName ASC'], limit: 25 }));
    const found = (await (await fetch(`${upstream.url}/v2/patients?filter=${search}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      id: string;
    }[];
    const target = { text: patient.patientCode, ids: found.map((p) => p.id) };
    const result = await benchPatientList(browser, gateway.baseUrl, 'admin@example.org', 'Demo-Passwort-1', target);
    row('Patient list, 5,000 patients, 4x CPU throttling: render', ms(result.renderMs), result.renderNote);
    row(
      'Patient list, 5,000 patients, 4x CPU throttling: apply a filter',
      ms(result.filterMs),
      `${result.filterNote}; budget ${budget.PATIENT_FILTER_AFTER_PAUSE_MS} ms`,
    );
    if (result.filterMs > budget.PATIENT_FILTER_AFTER_PAUSE_MS) {
      broken.push(`patient list filter ${Math.round(result.filterMs)} ms > ${budget.PATIENT_FILTER_AFTER_PAUSE_MS} ms`);
    }
  } finally {
    await gateway.stop();
    await upstream.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  assertClientBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'));
  const upstream = await startUpstream(dataDir);
  const gateway = await startServer({ dataDir, env: { UPSTREAM_URL: upstream.url } });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const failures: string[] = [];
  const step = async (name: string, run: () => Promise<void>) => {
    process.stderr.write(`${name}...\n`);
    try {
      await run();
    } catch (error) {
      failures.push(`${name}: ${(error as Error).message}`);
      row(name, 'not measured', (error as Error).message.split('\n')[0]);
    }
  };
  try {
    // Straight to the upstream: the gateway would (rightly) want an XSRF token for this POST.
    const token = await login(upstream.url, 'admin@example.org', 'Demo-Passwort-1');
    if (wanted('first')) await step('First screen', () => firstScreen(browser, gateway.baseUrl));
    if (wanted('journeys')) await step('Journeys', () => journeys(browser, gateway.baseUrl));
    if (wanted('cls')) await step('Layout shift', () => shifts(browser, gateway.baseUrl, upstream.url));
    if (wanted('lighthouse')) await step('Lighthouse', () => lighthouseScores(gateway.baseUrl));
    if (wanted('static')) await step('Static assets', () => staticAssets(gateway.baseUrl));
    if (wanted('gateway')) await step('Gateway cost', () => gatewayCost(upstream, dataDir, token));
    if (wanted('scale-lists')) await step('Scale lists', async () => void ((await benchScaleLists()) || broken.push('scale-lists: see its table')));
    if (wanted('scale-matrix')) await step('Scale matrix', async () => void (await benchScaleMatrix()));
    if (wanted('scale-stats')) await step('Statistics at size', async () => (await import('./bench-scale-stats.ts')).benchScaleStats());
    if (wanted('fairness')) await step('Fairness', () => benchFairness({ databaseUrl: process.env.FAIRNESS_DATABASE_URL }));
    if (wanted('patients')) await step('Patient list', () => patientList(browser));
  } finally {
    await browser.close();
    await gateway.stop();
    await upstream.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('');
  printTable();
  if (broken.length > 0) {
    console.error(`\n${broken.length} budget(s) broken:\n  ${broken.join('\n  ')}`);
    process.exitCode = 1;
  }
  if (failures.length > 0) {
    console.error(`\n${failures.length} measurement(s) failed:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  }
}

await main();
