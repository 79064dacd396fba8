import type { Browser, Page } from 'playwright-core';
import { waitForUsableLoginForm } from '../test/helpers/e2e-measure.ts';
import { installProbe, layoutShift, measureLoad, measureStep, type StepResult } from '../test/helpers/e2e-journey.ts';
import { JourneyRecorder } from '../test/helpers/e2e-journey-requests.ts';

/**
 * The measured journeys on Slow 3G: the login screen (cold cache), then the coach types their
 * credentials at a person's pace, presses "Anmelden" and lands on the dashboard; after a look at it they
 * open the first patient it lists. Also the layout shift of every screen at phone and desktop width.
 */

export const COACH = 'coach@example.org';
export const ADMIN = 'admin@example.org';
export const PASSWORD = 'Demo-Passwort-1';
/** Milliseconds between two key presses: a quick typist (about 6 characters a second). */
export const KEY_DELAY_MS = 150;

export interface JourneyRun {
  login: StepResult;
  loginCls: number;
  patient: StepResult;
  patientCls: number;
  /** The patient page the journey ended on (/patient/<id>). */
  patientPath: string;
}

/** The first link to a patient's page that the dashboard shows. */
export const firstPatientLink = (page: Page) => page.locator('main a[href^="/patient/"]').first();

/** One cold run of login -> dashboard -> patient at `width` px. */
export async function runJourney(browser: Browser, origin: string, width = 1280): Promise<JourneyRun> {
  const context = await browser.newContext({ baseURL: origin, locale: 'de-DE', viewport: { width, height: 800 } });
  try {
    await installProbe(context);
    const page = await context.newPage();
    const recorder = await JourneyRecorder.attach(page);
    await page.goto('/login', { waitUntil: 'commit' });
    await waitForUsableLoginForm(page, 120_000);
    await page.getByLabel('E-Mail', { exact: true }).pressSequentially(COACH, { delay: KEY_DELAY_MS });
    await page.getByLabel('Passwort', { exact: true }).pressSequentially(PASSWORD, { delay: KEY_DELAY_MS });
    const login = await measureStep(page, recorder, /^\/dashboard/, () => page.getByRole('button', { name: 'Anmelden' }).click());
    const loginCls = (await layoutShift(page, login.requests[0]?.startMs ?? 0)).cls;
    // The coach reads the dashboard before choosing a patient; whatever the page fetches meanwhile may finish.
    await recorder.idle(1500);
    const before = await page.evaluate(() => performance.timeOrigin + performance.now());
    const patient = await measureStep(page, recorder, /^\/patient\/[^/?]+/, () => firstPatientLink(page).click());
    const patientCls = (await layoutShift(page, before)).cls;
    return { login, loginCls, patient, patientCls, patientPath: new URL(page.url()).pathname };
  } finally {
    await context.close();
  }
}

export interface Screen {
  name: string;
  path: string;
  /** Regular expression over path + query that the settled screen shows. */
  expect: RegExp;
  as: 'coach' | 'admin' | null;
}

/** Every screen of the product, each loaded on its own (full page load, Slow 3G, warm HTTP cache). */
export function screens(patientId: string): Screen[] {
  const p = encodeURIComponent(patientId);
  const shell = (name: string, path: string, as: 'coach' | 'admin' = 'coach'): Screen => ({
    name,
    path,
    expect: new RegExp(`^${path.replace(/[?.]/g, '\\$&')}`),
    as,
  });
  return [
    { name: 'login', path: '/login', expect: /^\/login/, as: null },
    { name: 'coach-reset-password', path: '/coach-reset-password', expect: /^\/coach-reset-password/, as: null },
    { name: 'reset-password', path: '/reset-password?access_token=bench', expect: /^\/reset-password/, as: null },
    shell('dashboard', '/dashboard'),
    shell('patient list', '/patient'),
    shell('patient overview', `/patient/${p}`),
    ...['comments', 'data', 'appointments', 'evaluation', 'access'].map((tab) => shell(`patient ${tab}`, `/patient/${p}?tab=${tab}`)),
    shell('new patient', '/patient/new'),
    shell('create-access', '/create-access'),
    shell('settings', '/settings'),
    shell('information', '/information'),
    shell('news-dashboard', '/news-dashboard'),
    shell('print patient', `/print/patient?id=${p}`),
    shell('not found', '/no-such-page'),
    shell('admin', '/admin', 'admin'),
    shell('stats', '/stats', 'admin'),
    shell('export', '/export', 'admin'),
  ];
}

export interface ScreenShift {
  name: string;
  width: number;
  cls: number;
  ms: number;
  /** The shifts of the worst window: value and the elements that moved. */
  moved: string;
}

/** Signs in through the page (as a person would), so the token and the XSRF cookie are the browser's own. */
async function signedInPage(browser: Browser, origin: string, width: number, email: string | null) {
  const context = await browser.newContext({ baseURL: origin, locale: 'de-DE', viewport: { width, height: 800 } });
  await installProbe(context);
  const page = await context.newPage();
  if (email) {
    await page.goto('/login');
    await page.getByLabel('E-Mail', { exact: true }).fill(email);
    await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL('**/dashboard');
  }
  const recorder = await JourneyRecorder.attach(page);
  return { context, page, recorder };
}

/**
 * CLS of each screen of `batch` at `width`, one after another in one signed-in page, each loaded fresh until it has
 * settled. `before` is loaded first and not measured: the way a coach reaches the batch's first screen.
 */
async function batchShifts(browser: Browser, origin: string, width: number, batch: Screen[], before?: Screen): Promise<ScreenShift[]> {
  const as = batch[0].as;
  const { context, page, recorder } = await signedInPage(browser, origin, width, as === null ? null : as === 'coach' ? COACH : ADMIN);
  const results: ScreenShift[] = [];
  try {
    if (before) await measureLoad(page, recorder, before.path, before.expect);
    for (const screen of batch) {
      const step = await measureLoad(page, recorder, screen.path, screen.expect);
      const { cls, moved } = await layoutShift(page, 0);
      results.push({ name: screen.name, width, cls, ms: step.ms, moved });
    }
  } finally {
    await context.close();
  }
  return results;
}

/** The page a screen is measured in: one per role, and the coach's record (its tabs, its print view) on a page of its own. */
const pageOf = (screen: Screen) => `${screen.as}${screen.as === 'coach' && /^\/(patient\/[^/?]|print\/)/.test(screen.path) ? ' record' : ''}`;

/** Screens measured one after another in one page; longer lists are split over pages side by side (Slow 3G waits, not CPU). */
const SCREENS_PER_PAGE = 4;

/**
 * CLS of every screen at `width`, the pages side by side. Within a page the screens come in the order of `list`,
 * each after the ones before it, as a coach goes from screen to screen. A page that continues a longer list first
 * loads that list's first screen unmeasured: a record's tabs always come after its overview. (The first tab of a
 * record opened on Slow 3G takes longer than Settle's HOLD_MS; its late sections then shift it.)
 */
export async function screenShifts(browser: Browser, origin: string, width: number, list: Screen[]): Promise<ScreenShift[]> {
  const pages = new Map<string, Screen[]>();
  for (const screen of list) pages.set(pageOf(screen), [...(pages.get(pageOf(screen)) ?? []), screen]);
  const batches = [...pages.values()].flatMap((screens) => {
    const size = Math.ceil(screens.length / Math.ceil(screens.length / SCREENS_PER_PAGE));
    return Array.from({ length: Math.ceil(screens.length / size) }, (_, i) => ({
      batch: screens.slice(i * size, (i + 1) * size),
      before: i === 0 ? undefined : screens[0],
    }));
  });
  return (await Promise.all(batches.map(({ batch, before }) => batchShifts(browser, origin, width, batch, before)))).flat();
}

/** The calls the shell and the sign-in make on the way to any screen; everything else the screen asked for. */
const NOT_THE_SCREENS = /^\/v2\/(auth\/login|auth\/me|news|system\/settings)$/;
export const screenCalls = (step: StepResult) => step.api.filter((r) => !NOT_THE_SCREENS.test(new URL(r.url).pathname));

/* "Mein Tag" reads day evaluations after the dashboard has drawn: counted apart from its figures (scripts/budgets.ts). */
const DAY_EVALUATION = /^\/v2\/patients\/[^/]+\/sync-db\/day-evaluation$/;
const isDayEvaluationRead = (r: { url: string }) => DAY_EVALUATION.test(new URL(r.url).pathname);
/** The dashboard's own calls for its figures, and its background reads of day evaluations. */
export const dashboardCalls = (step: StepResult) => screenCalls(step).filter((r) => !isDayEvaluationRead(r));
export const dayEvaluationReads = (step: StepResult) => screenCalls(step).filter(isDayEvaluationRead);

/** /v2 answers of a step: how many, how many compressed, bytes as sent and as decoded. */
export function apiBytes(steps: StepResult[]) {
  const api = steps.flatMap((s) => s.api).filter((r) => !r.fromCache && r.status > 0);
  return {
    calls: api.length,
    compressed: api.filter((r) => r.encoding !== 'identity').length,
    large: api.filter((r) => r.decodedBytes > 1024).length,
    wire: api.reduce((sum, r) => sum + r.bytes, 0),
    decoded: api.reduce((sum, r) => sum + r.decodedBytes, 0),
  };
}
