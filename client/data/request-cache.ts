import { reportAnswer, reportNoAnswer } from '../lib/connection.ts';

/**
 * Between data/http.ts and the network:
 *
 * - identical GETs in flight (same URL, same token) are sent once; every caller gets its own copy of the
 *   answer, and a caller that gives up (its signal aborts) does not cancel the others;
 * - reference data (coaches, diagnoses, cost rates, system settings, news) is kept for the session: a second
 *   read is answered from memory at once and revalidated in the background (stale-while-revalidate), so the
 *   next read sees any change. A change the coach makes through the API (POST/PUT/PATCH/DELETE under the
 *   same collection) drops the kept answers of that collection;
 * - whether anything answered goes to lib/connection.ts (the "Keine Verbindung" banner, retry on reconnect).
 *
 * Only answers of the signed-in coach's own token are kept, in memory, and a new token starts empty.
 */

/** Collections kept for the session (docs/product.md#calls calls; first path segment under /v2, or the exact path). */
const REFERENCE = /^\/v2\/(coaches|diagnosis|cost-rates|news|system\/settings)(\?|$)/;
/** A kept answer younger than this is used without asking again. */
const FRESH_MS = 10_000;

interface Kept {
  response: Response;
  at: number;
}

const inFlight = new Map<string, { response: Promise<Response>; waiting: number; controller: AbortController }>();
const kept = new Map<string, Kept>();
/** Bumped per collection by every change, so an answer fetched before the change is not kept after it. */
const generation = new Map<string, number>();
let owner: string | null = null;

const collectionOf = (url: string) => new URL(url, 'http://x').pathname.split('/')[2] ?? '';
const headerOf = (init: RequestInit, name: string) => (init.headers as Record<string, string> | undefined)?.[name] ?? null;

function forgetCollection(url: string): void {
  const collection = collectionOf(url);
  generation.set(collection, (generation.get(collection) ?? 0) + 1);
  for (const key of kept.keys()) if (collectionOf(key.slice(key.indexOf('|') + 1)) === collection) kept.delete(key);
}

/** fetch() that reports to lib/connection.ts whether anything answered. */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    const response = await fetch(url, init);
    reportAnswer();
    return response;
  } catch (error) {
    if ((error as Error).name !== 'AbortError') reportNoAnswer();
    throw error;
  }
}

/** One network request for every caller of the same GET; the request is aborted only when all have given up. */
function shared(key: string, url: string, init: RequestInit, signal: AbortSignal | null | undefined): Promise<Response> {
  let entry = inFlight.get(key);
  if (!entry) {
    const controller = new AbortController();
    const response = send(url, { ...init, signal: controller.signal });
    const collection = collectionOf(url);
    const startedIn = generation.get(collection) ?? 0;
    entry = { response, waiting: 0, controller };
    inFlight.set(key, entry);
    response.then(
      (answer) => {
        if (inFlight.get(key) === entry) inFlight.delete(key);
        if (answer.ok && REFERENCE.test(url) && (generation.get(collection) ?? 0) === startedIn) kept.set(key, { response: answer.clone(), at: Date.now() });
      },
      () => inFlight.get(key) === entry && inFlight.delete(key),
    );
  }
  const current = entry;
  current.waiting++;
  return new Promise<Response>((resolve, reject) => {
    const giveUp = () => {
      reject(signal?.reason instanceof DOMException ? signal.reason : new DOMException('The request was aborted', 'AbortError'));
      if (--current.waiting === 0 && inFlight.get(key) === current) {
        inFlight.delete(key);
        current.controller.abort();
      }
    };
    if (signal?.aborted) return giveUp();
    signal?.addEventListener('abort', giveUp, { once: true });
    current.response.then(
      (answer) => {
        signal?.removeEventListener('abort', giveUp);
        current.waiting--;
        resolve(answer.clone());
      },
      (error: unknown) => {
        signal?.removeEventListener('abort', giveUp);
        current.waiting--;
        reject(error);
      },
    );
  });
}

/** The one door to the network for data/http.ts. */
export function fetchThrough(url: string, init: RequestInit): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  const token = headerOf(init, 'Authorization');
  if (token !== owner) {
    kept.clear();
    owner = token;
  }
  if (method !== 'GET') {
    forgetCollection(url);
    return send(url, init).finally(() => forgetCollection(url));
  }
  const key = `${token ?? ''}|${url}`;
  const cached = kept.get(key);
  if (cached) {
    // In the background, but tied to the caller's signal: it ends with the session like every other request.
    if (Date.now() - cached.at >= FRESH_MS && !inFlight.has(key)) shared(key, url, init, init.signal).catch(() => undefined);
    return Promise.resolve(cached.response.clone());
  }
  return shared(key, url, init, init.signal);
}

/** Test hook: nothing kept, nothing in flight. */
export function resetRequestCacheForTests(): void {
  kept.clear();
  inFlight.clear();
  generation.clear();
  owner = null;
}
