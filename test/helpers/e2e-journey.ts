import type { BrowserContext, Page } from 'playwright-core';
import type { JourneyRecorder, StepRequest } from './e2e-journey-requests.ts';

/**
 * Measures a step of a journey the way a person on a slow line lives it: from the moment they act (a click)
 * until the screen has settled, i.e. it shows its content (nothing marked aria-busy, a heading in the page,
 * every stylesheet applied) and no request the screen waits for is still open. Shared by `npm run bench`
 * and test/e2e/budgets.slow.test.ts so both measure the same thing.
 */

export interface StepResult {
  /** Action to settled, ms. */
  ms: number;
  /** Every request sent between the action and settled (cache hits included, favicon excluded). */
  requests: StepRequest[];
  /** Requests that went over the network (not from cache). */
  networkRequests: number;
  /** Bytes on the wire of those requests. */
  bytes: number;
  /** /v2 calls among the requests. */
  api: StepRequest[];
}

/** Per document: layout shifts and a "screen complete since" clock, updated every frame. Runs before page scripts. */
function probeInPage() {
  const probe = { shifts: [] as { t: number; v: number; input: boolean; what: string }[], expect: null as string | null, completeSince: null as number | null };
  (window as unknown as { __probe: typeof probe }).__probe = probe;
  const now = () => performance.timeOrigin + performance.now();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node }[] })[]) {
      // What moved (for the failure message): the first few elements, by tag and class.
      const what = (entry.sources ?? [])
        .slice(0, 3)
        .map((source) => (source.node instanceof Element ? `${source.node.localName}.${source.node.className}` : (source.node?.nodeName ?? '?')))
        .join(', ');
      probe.shifts.push({ t: performance.timeOrigin + entry.startTime, v: entry.value, input: entry.hadRecentInput, what });
    }
  }).observe({ type: 'layout-shift', buffered: true });
  const complete = () => {
    if (probe.expect !== null && !new RegExp(probe.expect).test(location.pathname + location.search)) return false;
    if (document.querySelector('[aria-busy="true"]')) return false;
    if (!document.querySelector('h1, h2')) return false;
    for (const link of document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')) {
      if (!link.sheet && !link.disabled) return false;
    }
    return true;
  };
  const tick = () => {
    if (!complete()) probe.completeSince = null;
    else probe.completeSince ??= now();
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Installs the probe in every document of the context (call before the first navigation). */
export async function installProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript(probeInPage);
}

const pageNow = (page: Page) => page.evaluate(() => performance.timeOrigin + performance.now());

/**
 * Runs `act` (which must cause the screen at `expect`, a regular expression over path + query) and waits
 * until that screen has settled: complete for `quietMs` with no foreground request open.
 */
export async function measureStep(page: Page, recorder: JourneyRecorder, expect: RegExp, act: () => Promise<void>, quietMs = 1000): Promise<StepResult> {
  await page.evaluate((source) => {
    const probe = (window as unknown as { __probe: { expect: string | null; completeSince: number | null } }).__probe;
    probe.expect = source;
    probe.completeSince = null;
  }, expect.source);
  const start = await pageNow(page);
  await act();
  const settled = await waitSettled(page, recorder, start, quietMs);
  const requests = recorder.since(start, settled);
  const network = requests.filter((r) => !r.fromCache);
  return {
    ms: settled - start,
    requests,
    networkRequests: network.length,
    bytes: network.reduce((sum, r) => sum + r.bytes, 0),
    api: requests.filter((r) => new URL(r.url).pathname.startsWith('/v2/')),
  };
}

/** Navigates to `url` (a full page load) and waits until the screen has settled; see measureStep. */
export function measureLoad(page: Page, recorder: JourneyRecorder, url: string, expect: RegExp, quietMs = 1000): Promise<StepResult> {
  return measureStep(
    page,
    recorder,
    expect,
    async () => {
      await page.goto(url, { waitUntil: 'commit' });
      await page.evaluate((source) => {
        (window as unknown as { __probe: { expect: string } }).__probe.expect = source;
      }, expect.source);
    },
    quietMs,
  );
}

async function waitSettled(page: Page, recorder: JourneyRecorder, start: number, quietMs: number, timeoutMs = 60_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const completeSince = await page
      .evaluate(() => (window as unknown as { __probe?: { completeSince: number | null } }).__probe?.completeSince ?? null)
      .catch(() => null); // the document is being replaced
    const now = await pageNow(page).catch(() => 0);
    const network = recorder.busy(start);
    if (completeSince !== null && !network.open) {
      const settled = Math.max(completeSince, network.lastEnd);
      if (now - settled >= quietMs) return settled;
    }
    if (Date.now() > deadline) {
      const open = recorder
        .since(start)
        .filter((r) => !r.background && r.endMs === null)
        .map((r) => new URL(r.url).pathname);
      const busy = await page.evaluate(() => document.querySelectorAll('[aria-busy="true"]').length).catch(() => -1);
      throw new Error(
        `the screen did not settle within ${timeoutMs} ms (${page.url()}; complete since ${completeSince}, ${busy} busy, open: ${open.join(', ') || 'none'})`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Cumulative Layout Shift as Chromium reports it: shifts without recent input, grouped into session
 * windows (gaps under 1 s, at most 5 s long); the largest window counts. Only shifts from `fromMs` on.
 */
export async function layoutShift(page: Page, fromMs: number): Promise<{ cls: number; shifts: number; moved: string }> {
  const shifts = await page.evaluate(
    () => (window as unknown as { __probe: { shifts: { t: number; v: number; input: boolean; what: string }[] } }).__probe.shifts,
  );
  let best = 0;
  let moved = '';
  let window = 0;
  let what: string[] = [];
  let first = -Infinity;
  let last = -Infinity;
  const counted = shifts.filter((s) => !s.input && s.t >= fromMs);
  for (const shift of counted) {
    if (shift.t - last > 1000 || shift.t - first > 5000) {
      window = 0;
      what = [];
      first = shift.t;
    }
    window += shift.v;
    what.push(`${shift.v.toFixed(3)} ${shift.what}`);
    last = shift.t;
    if (window > best) [best, moved] = [window, what.join('; ')];
  }
  return { cls: best, shifts: counted.length, moved };
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
