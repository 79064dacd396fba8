import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type Request } from 'playwright-core';
import { afterAll, test as base, inject } from 'vitest';
import { ROOT } from './e2e-server.ts';

const require = createRequire(import.meta.url);
/** axe-core's browser bundle, evaluated into each screen (see checkAccessibility). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const baseUrl = (): string => inject('e2eBaseUrl');
export const dataDir = (): string => inject('e2eDataDir');

let browser: Promise<Browser> | null = null;
/** The suite's one Chromium (started in e2e-global-setup.ts); each test file holds one connection. */
function sharedBrowser(): Promise<Browser> {
  browser ??= chromium.connect(inject('e2eBrowserEndpoint'));
  return browser;
}
afterAll(async () => {
  if (browser) await (await browser).close();
  browser = null;
});

/** A failure the test causes on purpose (a locked login answers 403); everything else fails the journey. */
export interface ProvokedFailure {
  /** Matched against the full request URL. */
  url: RegExp;
  status?: number;
  method?: string;
}

export interface Journey {
  page: Page;
  context: BrowserContext;
  origin: string;
  /** Declares a failing request as intended; the journey also fails if it never happens. */
  provoke(failure: ProvokedFailure): void;
  /**
   * Screenshot (test-artifacts/e2e/<journey>/NN-<name>.png), axe check and problem check of the current
   * screen of `on` (default: the journey's page; pass a popup such as a print view).
   */
  screen(name: string, on?: Page): Promise<void>;
  /** Everything that went wrong so far (console errors, failed or foreign requests, uncaught errors). */
  problems(): string[];
  /** Screenshots of every open page as failure-N.png (best effort; the context may already be closed). */
  captureFailure(): Promise<void>;
  /**
   * Resolves once no request of this context has been open for `quietMs` (like Playwright's networkidle,
   * but also after client-side navigation): the screen has finished loading what it asked for.
   */
  idle(quietMs?: number): Promise<void>;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);

function isSameOrigin(url: string, origin: string): boolean {
  // data:/blob:/about: never leave the browser, so they are not requests to another origin.
  if (/^(data|blob|about):/.test(url)) return true;
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/**
 * The violations that fail a screen: serious or critical ones. axe is evaluated through the DevTools
 * protocol (page.evaluate with the source text), which the page's CSP (script-src 'self') does not
 * govern, so the journey runs under the real CSP and needs no bypassCSP context.
 */
export async function checkAccessibility(page: Page): Promise<string[]> {
  const present = await page.evaluate(() => 'axe' in window);
  if (!present) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResults> } }).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => {
        const where = v.nodes.map((n) => `${n.target.join(' ')}${n.any[0]?.message ? ` - ${n.any[0].message}` : ''}`);
        return `${v.impact}: ${v.id} (${v.help}) at ${where.join('; ')}`;
      });
  });
}
interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[]; any: { message: string }[] }[] }[];
}

/**
 * `origin` is the gateway the journey runs against: options.baseURL, else the one in front of the built-in upstream.
 * `absent`: calls beyond docs/product.md#calls that this upstream does not have; the client asks for them once to find out,
 * and their failure is expected whenever it happens (unlike provoke(), nothing fails when it does not).
 */
export async function openJourney(
  name: string,
  options: BrowserContextOptions = {},
  origin = options.baseURL ?? baseUrl(),
  absent: ProvokedFailure[] = [],
): Promise<Journey & { close(): Promise<void> }> {
  const context = await (await sharedBrowser()).newContext({ baseURL: origin, locale: 'de-DE', viewport: { width: 1280, height: 800 }, ...options });
  // Generous for a 2-core CI machine that runs the other test projects at the same time.
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const found: string[] = [];
  const provoked: (ProvokedFailure & { seen: number; optional?: boolean })[] = absent.map((failure) => ({ ...failure, seen: 0, optional: true }));
  const dir = join(ROOT, 'test-artifacts', 'e2e', slug(name));
  mkdirSync(dir, { recursive: true });
  let shots = 0;

  const provokedMatch = (request: Request, status?: number) =>
    provoked.find(
      (p) =>
        p.url.test(request.url()) &&
        (p.method === undefined || p.method === request.method()) &&
        (p.status === undefined || status === undefined || p.status === status),
    );

  // A new document cancels what the old one was still loading (net::ERR_ABORTED): the browser's normal
  // behaviour, not a failure of the product. Count committed main-frame navigations per page.
  const documents = new WeakMap<Page, number>();
  const documentAtStart = new WeakMap<Request, number>();
  const documentOf = (request: Request) => {
    const owner = request.frame().page();
    return owner ? (documents.get(owner) ?? 0) : 0;
  };
  const watchDocuments = (p: Page) =>
    p.on('framenavigated', (frame) => {
      if (frame === p.mainFrame()) documents.set(p, (documents.get(p) ?? 0) + 1);
    });
  watchDocuments(page);
  context.on('page', watchDocuments);
  let open = 0;
  let lastChange = Date.now();
  const settle = () => {
    open--;
    lastChange = Date.now();
  };
  context.on('requestfinished', settle);
  context.on('requestfailed', settle);
  context.on('request', (request) => {
    open++;
    lastChange = Date.now();
    if (!isSameOrigin(request.url(), origin)) found.push(`request to another origin: ${request.method()} ${request.url()}`);
    if (!request.isNavigationRequest()) documentAtStart.set(request, documentOf(request));
  });
  context.on('response', (response) => {
    if (response.status() < 400) return;
    const match = provokedMatch(response.request(), response.status());
    if (match) match.seen++;
    else found.push(`failed request: ${response.request().method()} ${response.url()} -> ${response.status()}`);
  });
  // net::ERR_ABORTED is a cancel on the browser's side, not an answer from the server. It is excused when
  // the document that asked was replaced meanwhile, or when the page itself aborted a fetch (a stale search
  // cancelled by AbortController). Judged when the screen is checked, after navigation events have settled.
  const aborted: { request: Request; page: Page | null; document: number }[] = [];
  context.on('requestfailed', (request) => {
    // A provoked failure that got no answer at all (a stopped server) counts as happened, like one answered >= 400.
    const provokedFailure = provokedMatch(request);
    if (provokedFailure) {
      provokedFailure.seen++;
      return;
    }
    if (request.failure()?.errorText === 'net::ERR_ABORTED') {
      if (request.resourceType() === 'fetch') return;
      aborted.push({ request, page: request.frame().page(), document: documentAtStart.get(request) ?? 0 });
      return;
    }
    found.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? 'unknown'})`);
  });
  const judgeAborted = () => {
    for (const entry of aborted.splice(0)) {
      const replaced = entry.page !== null && (documents.get(entry.page) ?? 0) > entry.document;
      if (!replaced) found.push(`request aborted: ${entry.request.method()} ${entry.request.url()} (net::ERR_ABORTED)`);
    }
  };
  context.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Chromium logs every 4xx/5xx resource as a console error; a provoked one is already accounted for.
    const url = message.location().url;
    if (/^Failed to load resource/.test(message.text()) && provoked.some((p) => p.url.test(url))) return;
    found.push(`console error: ${message.text()}${url ? ` (${url})` : ''}`);
  });
  context.on('weberror', (error) => found.push(`uncaught error in the page: ${error.error().message}`));

  const assertClean = (where: string) => {
    judgeAborted();
    if (found.length > 0) throw new Error(`${where}:\n  ${found.join('\n  ')}`);
  };

  return {
    page,
    context,
    origin,
    provoke(failure) {
      provoked.push({ ...failure, seen: 0 });
    },
    problems: () => [...found],
    async captureFailure() {
      let n = 0;
      for (const open of context.pages()) {
        n++;
        await open.screenshot({ path: join(dir, `failure-${n}.png`), fullPage: true }).catch(() => {});
      }
    },
    async idle(quietMs = 300) {
      const deadline = Date.now() + 15_000;
      while (open > 0 || Date.now() - lastChange < quietMs) {
        if (Date.now() > deadline) throw new Error(`still ${open} open requests after 15 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async screen(screenName, on = page) {
      shots++;
      const file = join(dir, `${String(shots).padStart(2, '0')}-${slug(screenName)}.png`);
      // Finite CSS transitions are fast-forwarded so the picture shows the screen, not a slide-in half way.
      await on.screenshot({ path: file, fullPage: true, animations: 'disabled' });
      // Colours are judged at rest, not half way through a hover or slide transition.
      await on.evaluate(() => {
        for (const animation of document.getAnimations()) {
          if (animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY) animation.finish();
        }
      });
      const violations = await checkAccessibility(on);
      if (violations.length > 0) {
        throw new Error(`Screen "${screenName}" has serious accessibility violations:\n  ${violations.join('\n  ')}`);
      }
      assertClean(`Screen "${screenName}" had problems`);
    },
    async close() {
      try {
        assertClean(`Journey "${name}" had problems`);
        const missing = provoked.filter((p) => p.seen === 0 && !p.optional);
        if (missing.length > 0) {
          throw new Error(`Journey "${name}" declared failures that never happened: ${missing.map((p) => p.url).join(', ')}`);
        }
      } finally {
        await context.close();
      }
    },
  };
}

/**
 * `journey('signs in ...', async ({ j }) => ...)`: a test with a fresh browser context whose collected
 * problems fail it at the end, even when every step of the test passed.
 */
export const journey = journeyOn(baseUrl);

/**
 * The `journey` fixture against one gateway; `artifactPrefix` keeps the screenshots of the same journey on
 * different upstreams apart.
 */
export function journeyOn(origin: () => string, artifactPrefix = '', absent: ProvokedFailure[] = []) {
  return base.extend<{ j: Journey }>({
    j: async ({ task }, use) => {
      const opened = await openJourney(`${artifactPrefix}${task.name}`, {}, origin(), absent);
      await use(opened);
      // What every open page showed when a step failed, for the CI artifacts.
      if (task.result?.state === 'fail') await opened.captureFailure();
      await opened.close();
    },
  });
}

/** Like the `journey` fixture, for journeys that need their own context options (a user agent, a viewport). */
export async function withJourney(
  name: string,
  options: BrowserContextOptions,
  run: (j: Journey) => Promise<void>,
  origin = options.baseURL ?? baseUrl(),
  absent: ProvokedFailure[] = [],
): Promise<void> {
  const opened = await openJourney(name, options, origin, absent);
  try {
    await run(opened);
  } catch (error) {
    // The step's own error is the one to report; the context is only released.
    await opened.captureFailure();
    await opened.context.close().catch(() => {});
    throw error;
  }
  await opened.close();
}
