import type { CDPSession, Page } from 'playwright-core';

/** Slow 3G as the issue pins it: 400 kbit/s both ways (50,000 bytes/s), 400 ms round trip. */
export const SLOW_3G = { offline: false, latency: 400, downloadThroughput: 50_000, uploadThroughput: 50_000 };

export interface LoadedRequest {
  url: string;
  /** Bytes on the wire: headers plus (compressed) body, as Chromium's network stack counted them. */
  bytes: number;
  /** The (compressed) body alone: what brotli made of the file. */
  bodyBytes: number;
  encoding: string;
  status: number;
  fromCache: boolean;
  /** 1 = the document, 2 = something the document asked for, 3 = something that asked for ... */
  depth: number;
}

export interface FirstScreen {
  /** Milliseconds from navigation start to the usable login form (page clock). */
  usableMs: number;
  /** Requests the browser sent before the form was usable (the document included, the favicon not). */
  requests: LoadedRequest[];
  /**
   * The favicon, when the browser asked for it before the form was usable. Kept apart: it never gates the
   * form, and whether Chromium fetches it before or after that moment varies from run to run.
   */
  icon: LoadedRequest | null;
  /** Response bodies as sent (brotli where the server compressed), the first-screen budget's measure. */
  bodyBytes: number;
  /** Bodies plus HTTP headers: what the connection actually carried. */
  bytes: number;
  /** Longest dependency chain among those requests (HTML -> JS/CSS -> locale JSON = 3). */
  depth: number;
}

/**
 * True (the page clock's ms since navigation start) once the login form can be used: e-mail and password
 * fields and the submit button exist, are visible and enabled, and the button shows a translated label
 * (not a raw "group.key"), i.e. the locale JSON has arrived.
 */
function loginFormUsableInPage(): number | false {
  const email = document.querySelector<HTMLInputElement>('form input[type="email"], form input[name="email"]');
  const password = document.querySelector<HTMLInputElement>('form input[type="password"]');
  const button = email?.form?.querySelector<HTMLButtonElement>('button[type="submit"], button:not([type])');
  if (!email || !password || !button) return false;
  if (email.disabled || password.disabled || button.disabled) return false;
  if (!email.checkVisibility() || !password.checkVisibility() || !button.checkVisibility()) return false;
  const label = (button.textContent ?? '').trim();
  if (label === '' || /^[a-z][\w-]*(\.[\w-]+)+$/.test(label)) return false;
  return performance.now();
}

export async function waitForUsableLoginForm(page: Page, timeout = 30_000): Promise<number> {
  const handle = await page.waitForFunction(loginFormUsableInPage, undefined, { polling: 'raf', timeout });
  return (await handle.jsonValue()) as number;
}

/** Records every request of one navigation through CDP (sizes, encodings, cache hits and initiators). */
export class NetworkRecorder {
  private readonly byId = new Map<
    string,
    {
      url: string;
      wallMs: number;
      initiatorUrl: string | null;
      bytes: number;
      headerBytes: number;
      encoding: string;
      status: number;
      fromCache: boolean;
      done: boolean;
    }
  >();
  private constructor() {}

  static async attach(cdp: CDPSession): Promise<NetworkRecorder> {
    const recorder = new NetworkRecorder();
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.request.url.startsWith('data:')) return;
      const frames = e.initiator.stack?.callFrames ?? e.initiator.stack?.parent?.callFrames ?? [];
      const initiatorUrl = e.initiator.url ?? frames.find((f) => f.url)?.url ?? null;
      recorder.byId.set(e.requestId, {
        url: e.request.url,
        wallMs: e.wallTime * 1000,
        initiatorUrl,
        bytes: 0,
        headerBytes: 0,
        encoding: '',
        status: 0,
        fromCache: false,
        done: false,
      });
    });
    cdp.on('Network.responseReceived', (e) => {
      const entry = recorder.byId.get(e.requestId);
      if (!entry) return;
      const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      entry.status = e.response.status;
      // Bytes received when the response head arrived: the status line and headers.
      entry.headerBytes = e.response.encodedDataLength;
      entry.encoding = headers['content-encoding'] ?? 'identity';
      entry.fromCache = Boolean(e.response.fromDiskCache || e.response.fromPrefetchCache || e.response.fromServiceWorker);
    });
    cdp.on('Network.requestServedFromCache', (e) => {
      const entry = recorder.byId.get(e.requestId);
      if (entry) entry.fromCache = true;
    });
    cdp.on('Network.loadingFinished', (e) => {
      const entry = recorder.byId.get(e.requestId);
      if (!entry) return;
      entry.bytes = e.encodedDataLength;
      entry.done = true;
    });
    cdp.on('Network.loadingFailed', (e) => {
      const entry = recorder.byId.get(e.requestId);
      if (entry) entry.done = true;
    });
    await cdp.send('Network.enable');
    return recorder;
  }

  reset(): void {
    this.byId.clear();
  }

  /** Waits until every recorded request has finished or failed, so byte counts are complete. */
  async settled(timeout = 60_000): Promise<void> {
    const deadline = Date.now() + timeout;
    while ([...this.byId.values()].some((r) => !r.done)) {
      if (Date.now() > deadline) throw new Error('requests did not finish in time');
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Requests sent up to `untilWallMs` (epoch ms; all when omitted) with their chain depth. */
  requests(untilWallMs = Number.POSITIVE_INFINITY): LoadedRequest[] {
    const all = [...this.byId.values()];
    const depthOf = new Map<string, number>();
    const depth = (url: string, seen = new Set<string>()): number => {
      const known = depthOf.get(url);
      if (known !== undefined) return known;
      const entry = all.find((r) => r.url === url);
      if (!entry?.initiatorUrl || seen.has(url) || entry.initiatorUrl === url) return 1;
      seen.add(url);
      const d = depth(entry.initiatorUrl, seen) + 1;
      depthOf.set(url, d);
      return d;
    };
    return all
      .filter((r) => r.wallMs <= untilWallMs)
      .map((r) => ({
        url: r.url,
        bytes: r.bytes,
        bodyBytes: Math.max(0, r.bytes - r.headerBytes),
        encoding: r.encoding,
        status: r.status,
        fromCache: r.fromCache,
        depth: depth(r.url),
      }));
  }
}

/**
 * Loads `url` in a page that has a recorder attached and measures the first screen: the requests
 * sent before the login form was usable, their bytes on the wire and the longest dependency chain.
 */
export async function measureLoginScreen(page: Page, recorder: NetworkRecorder, url: string): Promise<FirstScreen> {
  recorder.reset();
  await page.goto(url, { waitUntil: 'commit' });
  const usableMs = await waitForUsableLoginForm(page, 120_000);
  const usableWallMs = await page.evaluate((ms) => performance.timeOrigin + ms, usableMs);
  const iconHref = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel~="icon"]')?.href ?? null);
  await recorder.settled();
  const all = recorder.requests(usableWallMs);
  const requests = all.filter((r) => r.url !== iconHref);
  return {
    usableMs,
    requests,
    icon: all.find((r) => r.url === iconHref) ?? null,
    bodyBytes: requests.reduce((sum, r) => sum + r.bodyBytes, 0),
    bytes: requests.reduce((sum, r) => sum + r.bytes, 0),
    depth: requests.reduce((max, r) => Math.max(max, r.depth), 0),
  };
}

/** Transfer time at the emulated bandwidth plus one round trip per chain level and one for the connection. */
export function physicalFloorMs(bytes: number, depth: number): number {
  return (bytes / SLOW_3G.downloadThroughput) * 1000 + (depth + 1) * SLOW_3G.latency;
}
