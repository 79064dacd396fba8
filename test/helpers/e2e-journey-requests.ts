import type { CDPSession, Page } from 'playwright-core';
import { SLOW_3G } from './e2e-measure.ts';

/** One request of a measured step, as JourneyRecorder saw it over the DevTools protocol. */
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
