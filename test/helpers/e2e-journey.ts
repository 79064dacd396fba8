import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { SLOW_3G } from './e2e-measure.ts';

/**
 * Measures a step of a journey the way a person on a slow line lives it: from the moment they act (a click)
 * until the screen has settled, i.e. it shows its content (nothing marked aria-busy, a heading in the page,
 * every stylesheet applied) and no request the screen waits for is still open. Shared by `npm run bench`
 * and test/e2e/budgets.test.ts so both measure the same thing.
 */

export interface StepRequest {
  url: string;
  method: string;
  /** Epoch ms (page clock) the browser sent it / finished it. */
  startMs: number;
  endMs: number | null;
  /** Bytes on the wire (headers + encoded body); 0 for cache hits. */
  bytes: number;
  /** Body bytes after decoding (what the page received). */
  decodedBytes: number;
  encoding: string;
  status: number;
  fromCache: boolean;
  /** Low-priority fetches the page makes for later (prefetch); they never gate a screen. */
  background: boolean;
}

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
  const probe = { shifts: [] as { t: number; v: number; input: boolean }[], expect: null as string | null, completeSince: null as number | null };
  (window as unknown as { __probe: typeof probe }).__probe = probe;
  const now = () => performance.timeOrigin + performance.now();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
      probe.shifts.push({ t: performance.timeOrigin + entry.startTime, v: entry.value, input: entry.hadRecentInput });
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

interface Entry extends StepRequest {
  priority: string;
  headerBytes: number;
  /** The document that sent it. */
  loaderId: string;
}

/** Every request of one page over CDP, with times on the page's clock (epoch ms). */
export class JourneyRecorder {
  readonly entries = new Map<string, Entry>();
  /** CDP monotonic seconds -> epoch ms. */
  private offsetMs: number | null = null;
  /** The current document: requests of a replaced one never gate a screen (Chromium may never finish them). */
  private document: string | null = null;
  readonly cdp: CDPSession;
  private constructor(cdp: CDPSession) {
    this.cdp = cdp;
  }

  static async attach(page: Page, throttle = true): Promise<JourneyRecorder> {
    const cdp = await page.context().newCDPSession(page);
    const recorder = new JourneyRecorder(cdp);
    const at = (timestamp: number) => timestamp * 1000 + (recorder.offsetMs ?? 0);
    cdp.on('Network.requestWillBeSent', (e) => {
      if (!/^https?:/.test(e.request.url)) return;
      recorder.offsetMs ??= e.wallTime * 1000 - e.timestamp * 1000;
      if (e.type === 'Document') recorder.document = e.loaderId;
      const path = new URL(e.request.url).pathname;
      const priority = e.request.initialPriority;
      recorder.entries.set(e.requestId, {
        url: e.request.url,
        method: e.request.method,
        startMs: at(e.timestamp),
        endMs: null,
        bytes: 0,
        headerBytes: 0,
        decodedBytes: 0,
        encoding: '',
        status: 0,
        fromCache: false,
        background: path.startsWith('/assets/') && (priority === 'VeryLow' || priority === 'Low'),
        priority,
        loaderId: e.loaderId,
      });
    });
    cdp.on('Network.responseReceived', (e) => {
      const entry = recorder.entries.get(e.requestId);
      if (!entry) return;
      const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      entry.status = e.response.status;
      entry.encoding = headers['content-encoding'] ?? 'identity';
      entry.headerBytes = e.response.encodedDataLength;
      if (e.response.fromDiskCache || e.response.fromPrefetchCache || e.response.fromServiceWorker) entry.fromCache = true;
    });
    cdp.on('Network.requestServedFromCache', (e) => {
      const entry = recorder.entries.get(e.requestId);
      if (entry) entry.fromCache = true;
    });
    cdp.on('Network.dataReceived', (e) => {
      const entry = recorder.entries.get(e.requestId);
      if (entry) entry.decodedBytes += e.dataLength;
    });
    cdp.on('Network.loadingFinished', (e) => {
      const entry = recorder.entries.get(e.requestId);
      if (!entry) return;
      entry.endMs = at(e.timestamp);
      entry.bytes = entry.fromCache ? 0 : e.encodedDataLength;
    });
    cdp.on('Network.loadingFailed', (e) => {
      const entry = recorder.entries.get(e.requestId);
      if (entry) entry.endMs = at(e.timestamp);
    });
    await cdp.send('Network.enable');
    if (throttle) await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
    return recorder;
  }

  /** Requests started at or after `fromMs`, favicon excluded. */
  since(fromMs: number, untilMs = Number.POSITIVE_INFINITY): StepRequest[] {
    return [...this.entries.values()]
      .filter((r) => r.startMs >= fromMs && r.startMs <= untilMs && !new URL(r.url).pathname.startsWith('/favicon'))
      .map(({ priority: _p, headerBytes: _h, loaderId: _l, ...request }) => request);
  }

  /** True while a request that a screen may wait for (anything but background prefetches) is open. */
  busy(fromMs: number): { open: boolean; lastEnd: number } {
    let open = false;
    let lastEnd = 0;
    for (const r of this.entries.values()) {
      if (r.startMs < fromMs || r.background || new URL(r.url).pathname.startsWith('/favicon')) continue;
      if (this.document !== null && r.loaderId !== this.document) continue;
      if (r.endMs === null) open = true;
      else lastEnd = Math.max(lastEnd, r.endMs);
    }
    return { open, lastEnd };
  }

  /** Waits until no request of any kind is open (prefetches included) for `quietMs`. */
  async idle(quietMs = 1000, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let quietSince = Date.now();
    for (;;) {
      const open = [...this.entries.values()].some((r) => r.endMs === null && (this.document === null || r.loaderId === this.document));
      if (open) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
      if (Date.now() > deadline) throw new Error('the page did not go idle');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
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
export async function layoutShift(page: Page, fromMs: number): Promise<{ cls: number; shifts: number }> {
  const shifts = await page.evaluate(() => (window as unknown as { __probe: { shifts: { t: number; v: number; input: boolean }[] } }).__probe.shifts);
  let best = 0;
  let window = 0;
  let first = -Infinity;
  let last = -Infinity;
  const counted = shifts.filter((s) => !s.input && s.t >= fromMs);
  for (const shift of counted) {
    if (shift.t - last > 1000 || shift.t - first > 5000) {
      window = 0;
      first = shift.t;
    }
    window += shift.v;
    last = shift.t;
    best = Math.max(best, window);
  }
  return { cls: best, shifts: counted.length };
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
