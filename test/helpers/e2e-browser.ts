import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, test as base, inject } from 'vitest';
import { checkAccessibility } from './e2e-accessibility.ts';
import { type Provoked, type ProvokedFailure, watchProblems } from './e2e-problems.ts';
import { ROOT } from './e2e-server.ts';
import type { E2eStack } from './e2e-global-setup.ts';

export type { ProvokedFailure };

/** The gateways of this test worker (e2e-global-setup.ts): files in other workers never touch their data. */
export function stack(): E2eStack {
  const stacks = inject('e2eStacks');
  return stacks[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % stacks.length];
}
export const baseUrl = (): string => stack().baseUrl;
export const dataDir = (): string => stack().dataDir;

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

export interface Journey {
  page: Page;
  context: BrowserContext;
  origin: string;
  /** Declares a failing request as intended; the journey also fails if it never happens. */
  provoke(failure: ProvokedFailure): void;
  /** Declares a failing request as harmless when it happens (a race the journey cannot order); nothing fails when it does not. */
  tolerate(failure: ProvokedFailure): void;
  /**
   * Axe check and problem check of the current screen of `on` (default: the journey's page; pass a popup such as a
   * print view), and its picture when E2E_SCREENSHOTS=1.
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

/**
 * Pictures of every screen (test-artifacts/e2e/<journey>/NN-<name>.png) only when asked: E2E_SCREENSHOTS=1. A third of a
 * screen check's time went into full-page pictures of passing screens nobody looks at; a failing journey always
 * saves pictures of its open pages (captureFailure).
 */
const SCREENSHOTS = process.env.E2E_SCREENSHOTS === '1';

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);

/** Where a journey runs and what it keeps. */
export interface JourneyTarget {
  /** The gateway the journey runs against: the context's baseURL, else the one in front of the built-in upstream. */
  origin?: string;
  /**
   * Calls beyond docs/product.md#calls that this upstream does not have; the client asks for them once to find out,
   * and their failure is expected whenever it happens (unlike provoke(), nothing fails when it does not).
   */
  absent?: ProvokedFailure[];
}

export async function openJourney(
  name: string,
  options: BrowserContextOptions = {},
  target: JourneyTarget = {},
): Promise<Journey & { close(): Promise<void> }> {
  const { origin = options.baseURL ?? baseUrl(), absent = [] } = target;
  const context = await (await sharedBrowser()).newContext({ baseURL: origin, locale: 'de-DE', viewport: { width: 1280, height: 800 }, ...options });
  // Generous for a 2-core CI machine that runs the other test projects at the same time.
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const provoked: Provoked[] = absent.map((failure) => ({ ...failure, seen: 0, optional: true }));
  const dir = join(ROOT, 'test-artifacts', 'e2e', slug(name));
  let shots = 0;

  const watch = watchProblems(context, page, origin, provoked);
  const { found, assertClean } = watch;

  return {
    page,
    context,
    origin,
    provoke(failure) {
      provoked.push({ ...failure, seen: 0 });
    },
    tolerate(failure) {
      provoked.push({ ...failure, seen: 0, optional: true });
    },
    problems: () => [...found],
    async captureFailure() {
      let n = 0;
      mkdirSync(dir, { recursive: true });
      for (const open of context.pages()) {
        n++;
        await open.screenshot({ path: join(dir, `failure-${n}.png`), fullPage: true }).catch(() => {});
      }
    },
    async idle(quietMs = 300) {
      const deadline = Date.now() + 15_000;
      while (watch.openRequests() > 0 || Date.now() - watch.lastChange() < quietMs) {
        if (Date.now() > deadline) throw new Error(`still ${watch.openRequests()} open requests after 15 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async screen(screenName, on = page) {
      shots++;
      const file = join(dir, `${String(shots).padStart(2, '0')}-${slug(screenName)}.png`);
      // Finite CSS transitions are fast-forwarded so the picture shows the screen, not a slide-in half way.
      if (SCREENSHOTS) {
        mkdirSync(dir, { recursive: true });
        await on.screenshot({ path: file, fullPage: true, animations: 'disabled' });
      }
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
export const journey = journeyOn(() => ({}));

/**
 * The `journey` fixture against one gateway; `artifactPrefix` keeps the screenshots of the same journey on
 * different upstreams apart.
 */
export function journeyOn(target: () => JourneyTarget, artifactPrefix = '') {
  return base.extend<{ j: Journey }>({
    j: async ({ task }, use) => {
      const opened = await openJourney(`${artifactPrefix}${task.name}`, {}, target());
      await use(opened);
      // What every open page showed when a step failed, for the CI artifacts.
      if (task.result?.state === 'fail') await opened.captureFailure();
      await opened.close();
    },
  });
}

/** Like the `journey` fixture, for journeys that need their own context options (a user agent, a viewport). */
export async function withJourney(name: string, options: BrowserContextOptions, run: (j: Journey) => Promise<void>, target: JourneyTarget = {}): Promise<void> {
  const opened = await openJourney(name, options, target);
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
