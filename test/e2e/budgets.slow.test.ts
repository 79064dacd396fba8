import { afterAll, describe, expect, inject, test } from 'vitest';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { baseUrl, journey } from '../helpers/e2e-browser.ts';
import { DEMO, signIn } from '../helpers/e2e-api.ts';
import { median } from '../helpers/e2e-journey.ts';
import { NetworkRecorder, measureLoginScreen, type FirstScreen } from '../helpers/e2e-measure.ts';
import { dashboardCalls, dayEvaluationReads, runJourney, screenShifts, screens, type JourneyRun } from '../../scripts/bench-journeys.ts';
import { NGINX, compareStatic } from '../../scripts/bench-static.ts';
import {
  CLS as CLS_BUDGET,
  DASHBOARD_CALLS,
  DASHBOARD_TO_PATIENT_MS,
  DAY_EVALUATION_READS,
  FIRST_SCREEN_BYTES,
  FIRST_SCREEN_CHAIN_DEPTH,
  FIRST_SCREEN_REQUESTS,
  LOGIN_TO_DASHBOARD_MS,
  LOGIN_TO_DASHBOARD_REQUESTS,
  STATIC_SHARE_OF_NGINX,
} from '../../scripts/budgets.ts';

// The budgets are scripts/budgets.ts. Timings are medians of three cold runs on Slow 3G (400 kbit/s, 400 ms RTT):
// the machine is shared, and one run can be slowed by what else runs; scripts/bench.ts measures the same journeys.

const describeRequests = (screen: FirstScreen) =>
  screen.requests.map((r) => `${r.url}: body ${r.bodyBytes} B ${r.encoding}, with headers ${r.bytes} B`).join('\n');

let browser: Promise<Browser> | null = null;
const shared = () => (browser ??= chromium.connect(inject('e2eBrowserEndpoint')));
afterAll(async () => {
  if (browser) await (await browser).close();
});

describe('performance budgets of the login screen', () => {
  // Bodies as sent (brotli), as scripts/size.ts counts the build; here measured in the browser, so whatever
  // the page really fetches before the form is usable counts, including anything the build report misses.
  journey('delivers the login screen in at most 30 KB of compressed responses, all from its own origin', async ({ j }) => {
    const recorder = await NetworkRecorder.attach(await j.context.newCDPSession(j.page));
    const screen = await measureLoginScreen(j.page, recorder, `${j.origin}/login`);
    await j.screen('login');
    expect(
      screen.requests.every((r) => new URL(r.url).origin === j.origin),
      describeRequests(screen),
    ).toBe(true);
    expect(screen.bodyBytes, describeRequests(screen)).toBeLessThanOrEqual(FIRST_SCREEN_BYTES);
  });

  // The favicon is not counted (FirstScreen.icon): it never gates the form and its timing varies.
  journey('makes the login form usable after one round of requests, each named by the page itself', async ({ j }) => {
    const recorder = await NetworkRecorder.attach(await j.context.newCDPSession(j.page));
    const screen = await measureLoginScreen(j.page, recorder, `${j.origin}/login`);
    expect(screen.requests.length, describeRequests(screen)).toBeGreaterThan(2);
    expect(screen.requests.length, describeRequests(screen)).toBeLessThanOrEqual(FIRST_SCREEN_REQUESTS);
    expect(screen.depth, describeRequests(screen)).toBeLessThanOrEqual(FIRST_SCREEN_CHAIN_DEPTH);
  });

  journey('serves the first screen compressed with brotli', async ({ j }) => {
    const recorder = await NetworkRecorder.attach(await j.context.newCDPSession(j.page));
    const screen = await measureLoginScreen(j.page, recorder, `${j.origin}/login`);
    const large = screen.requests.filter((r) => r.bodyBytes > 1000 && r.status === 200);
    expect(large.length).toBeGreaterThan(0);
    expect(large.map((r) => `${new URL(r.url).pathname}: ${r.encoding}`)).toEqual(large.map((r) => `${new URL(r.url).pathname}: br`));
  });

  journey('takes every hashed asset from the browser cache on a repeat visit', async ({ j }) => {
    const first = await measureLoginScreen(j.page, await NetworkRecorder.attach(await j.context.newCDPSession(j.page)), `${j.origin}/login`);
    // A new tab in the same profile: normal cache rules (a reload would revalidate everything).
    const again = await j.context.newPage();
    const repeat = await measureLoginScreen(again, await NetworkRecorder.attach(await j.context.newCDPSession(again)), `${j.origin}/login`);
    const hashed = (r: { url: string }) => /\/assets\/[^/]+-[A-Z0-9]{8}\.(js|css)$/.test(new URL(r.url).pathname);
    expect(first.requests.filter(hashed).length).toBeGreaterThan(0);
    const fetchedAgain = repeat.requests.filter((r) => hashed(r) && !r.fromCache).map((r) => r.url);
    expect(fetchedAgain).toEqual([]);
    await j.screen('login on a repeat visit', again);
  });

  /**
   * Every element's computed style (and its ::before/::after), as the page shows it now. Custom properties are
   * left out: the first-screen sheet declares only those its rules read; what is drawn is in the others.
   */
  const styles = (page: Page) =>
    page.evaluate(() => {
      // At rest: a transition half way (the red border of an invalid field fading in) is no difference.
      for (const animation of document.getAnimations()) animation.finish();
      const out: Record<string, string> = {};
      // The page's own elements (head gains modulepreload links as the prefetch goes on).
      const elements = [document.documentElement, document.body, ...document.body.querySelectorAll('*')];
      elements.forEach((element, i) => {
        for (const pseudo of [null, '::before', '::after']) {
          const style = getComputedStyle(element, pseudo);
          for (const property of Array.from(style).filter((name) => !name.startsWith('--')))
            out[`${i} ${element.tagName}${element.className ? `.${element.className}` : ''}${pseudo ?? ''} ${property}`] = style.getPropertyValue(property);
        }
      });
      return out;
    });
  const withoutAppSheet = async (page: Page) => {
    await page.evaluate(() =>
      document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][href*="/assets/main-"]').forEach((link) => {
        link.disabled = true;
      }),
    );
    const snapshot = await styles(page);
    await page.evaluate(() =>
      document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][href*="/assets/main-"]').forEach((link) => {
        link.disabled = false;
      }),
    );
    return snapshot;
  };
  const differences = (a: Record<string, string>, b: Record<string, string>) =>
    Object.keys({ ...a, ...b })
      .filter((key) => a[key] !== b[key])
      .map((key) => `${key}: ${a[key]} / ${b[key]}`);

  // The page links only the first-screen sheet; the app sheet arrives while the coach types. Both must draw every
  // state of the first screen identically, or the screen would change under the coach's eyes (and shift).
  journey('styles every state of the login screen with its own small sheet exactly as with the full app sheet', async ({ j }) => {
    j.provoke({ url: /\/v2\/auth\/login$/, status: 401 });
    await j.page.goto('/login');
    await j.page.waitForFunction(() => [...document.styleSheets].some((sheet) => sheet.href?.includes('/assets/main-')));
    expect(differences(await withoutAppSheet(j.page), await styles(j.page))).toEqual([]);
    await signIn(j.page, DEMO.coach, 'falsches-Passwort');
    await j.page.getByRole('alert').filter({ hasText: 'Die Anmeldung ist fehlgeschlagen' }).waitFor();
    expect(differences(await withoutAppSheet(j.page), await styles(j.page))).toEqual([]);
    await j.context.setOffline(true);
    await j.page.getByRole('status').filter({ hasText: 'Keine Verbindung' }).waitFor();
    expect(differences(await withoutAppSheet(j.page), await styles(j.page))).toEqual([]);
    await j.screen('login: wrong password, offline');
    await j.context.setOffline(false);
  });
});

describe('performance budgets after the login screen (Slow 3G, cold cache after the login screen)', () => {
  const runs: JourneyRun[] = [];
  const journeys = async () => {
    while (runs.length < 3) runs.push(await runJourney(await shared(), baseUrl()));
    return runs;
  };
  const listed = (run: JourneyRun, step: 'login' | 'patient') =>
    run[step].requests.map((r) => `${new URL(r.url).pathname}${r.fromCache ? ' (cache)' : ''}`).join(', ');

  test(`press "Anmelden" -> dashboard settled within ${LOGIN_TO_DASHBOARD_MS} ms and ${LOGIN_TO_DASHBOARD_REQUESTS} requests, all of them to the API`, async () => {
    const all = await journeys();
    const ms = median(all.map((r) => r.login.ms));
    expect(ms, all.map((r) => `${Math.round(r.login.ms)} ms: ${listed(r, 'login')}`).join('\n')).toBeLessThanOrEqual(LOGIN_TO_DASHBOARD_MS);
    for (const run of all) {
      expect(run.login.requests.length, listed(run, 'login')).toBeLessThanOrEqual(LOGIN_TO_DASHBOARD_REQUESTS);
      // The code and styles came while the coach typed: pressing "Anmelden" needs only the API.
      // Low-priority prefetches for the next screen (the dashboard's of the patient area) may start meanwhile.
      expect(run.login.requests.filter((r) => !r.background && !new URL(r.url).pathname.startsWith('/v2/')).map((r) => r.url)).toEqual([]);
    }
  }, 240_000);

  test(`the dashboard gets its figures in at most ${DASHBOARD_CALLS} /v2 calls, and reads at most ${DAY_EVALUATION_READS} day evaluations`, async () => {
    for (const run of await journeys()) {
      const calls = dashboardCalls(run.login).map((r) => `${r.method} ${new URL(r.url).pathname}`);
      expect(calls.length, calls.join(', ')).toBeGreaterThan(0);
      expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(DASHBOARD_CALLS);
      expect(dayEvaluationReads(run.login).length).toBeLessThanOrEqual(DAY_EVALUATION_READS);
    }
  }, 240_000);

  test(`dashboard -> a patient's page settled within ${DASHBOARD_TO_PATIENT_MS} ms`, async () => {
    const all = await journeys();
    const ms = median(all.map((r) => r.patient.ms));
    expect(ms, all.map((r) => `${Math.round(r.patient.ms)} ms: ${listed(r, 'patient')}`).join('\n')).toBeLessThanOrEqual(DASHBOARD_TO_PATIENT_MS);
  }, 240_000);

  test('the /v2 answers over 1 KB reach the browser compressed', async () => {
    const answers = (await journeys()).flatMap((r) => [...r.login.api, ...r.patient.api]).filter((r) => r.decodedBytes > 1024 && r.status === 200);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((r) => r.encoding === 'identity').map((r) => r.url)).toEqual([]);
  }, 240_000);

  test(`every screen shifts by at most ${CLS_BUDGET} (CLS) at 375 and at 1280 px`, async () => {
    const patientId = decodeURIComponent((await journeys())[0].patientPath.split('/')[2]);
    const list = screens(patientId);
    // One width after the other, as `npm run bench` measures: both at once put twice the pages on the machine's cores,
    // and a page starved of CPU showed before its data (Settle's HOLD_MS), which no coach's single page does.
    const results: Awaited<ReturnType<typeof screenShifts>> = [];
    for (const width of [375, 1280]) results.push(...(await screenShifts(await shared(), baseUrl(), width, list)));
    expect(results).toHaveLength(list.length * 2);
    const over = results.filter((r) => r.cls > CLS_BUDGET).map((r) => `${r.name} at ${r.width} px: ${r.cls.toFixed(3)} (${r.moved})`);
    expect(over).toEqual([]);
  }, 480_000);
});

describe('static files', () => {
  test.skipIf(!existsSync(NGINX))(
    `the gateway serves the main script at ${STATIC_SHARE_OF_NGINX * 100} % or more of nginx's requests per second`,
    async () => {
      const { gateway, nginx, ratio } = await compareStatic(baseUrl(), 3, 2);
      expect(ratio, `gateway ${Math.round(gateway.rps)} req/s, nginx ${Math.round(nginx?.rps ?? 0)} req/s`).toBeGreaterThanOrEqual(STATIC_SHARE_OF_NGINX);
    },
    120_000,
  );
});
