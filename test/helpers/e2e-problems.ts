import type { BrowserContext, Page, Request } from 'playwright-core';

/** A failure the test causes on purpose (a locked login answers 403); everything else fails the journey. */
export interface ProvokedFailure {
  /** Matched against the full request URL. */
  url: RegExp;
  status?: number;
  method?: string;
  /**
   * The client reports this call's answer as unusable (a console error whose text this matches), as it should
   * when an upstream answers a write with another shape: that report is expected, not a problem.
   */
  report?: RegExp;
}

/** A declared failure and how often it happened; `optional` ones (calls an upstream lacks) may never happen. */
export type Provoked = ProvokedFailure & { seen: number; optional?: boolean };

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
 * Listens to everything `context` does and collects what went wrong: requests to another origin, failed or
 * aborted requests, answers of 400 and more, console errors and uncaught errors, except the provoked ones
 * (each counted in its `seen`). It also counts open requests, for the journey's idle().
 */
export function watchProblems(context: BrowserContext, page: Page, origin: string, provoked: Provoked[]) {
  const found: string[] = [];
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
    const reported = provoked.find((p) => p.report?.test(message.text()));
    if (reported) {
      reported.seen++;
      return;
    }
    found.push(`console error: ${message.text()}${url ? ` (${url})` : ''}`);
  });
  context.on('weberror', (error) => found.push(`uncaught error in the page: ${error.error().message}`));

  const assertClean = (where: string) => {
    judgeAborted();
    if (found.length > 0) throw new Error(`${where}:\n  ${found.join('\n  ')}`);
  };

  return { found, assertClean, openRequests: () => open, lastChange: () => lastChange };
}
