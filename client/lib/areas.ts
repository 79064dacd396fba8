import { createElement, type ComponentType } from 'react';
import { reportAnswer, reportNoAnswer } from './connection.ts';
import { loadDocument } from './i18n.ts';
import { AreaLoadError } from './load-error.ts';

export { AreaLoadError, isLoadError } from './load-error.ts';

/**
 * Loading the areas of the route table (client/routes.tsx): each area's script, the chunks it imports and the app
 * stylesheet, all named in the page by the build (scripts/build.ts), so they are fetched in parallel instead of
 * one import after the other.
 *
 * Every file is fetched with fetch() before the module is imported. A failed fetch rejects here and leaves
 * nothing behind, so "Erneut versuchen" or the next visit fetches again; had import() itself failed, the
 * browser would keep that failure for the rest of the page's life (most browsers still do). The same fetch,
 * at low priority, is the prefetch: the files land in the HTTP cache, and the import then reads them there.
 */

interface AreaFiles {
  /** The app stylesheet. */
  css: string;
  /** Area name -> its scripts. */
  files: Record<string, string[]>;
}

/** Written into the page by the build; absent in unit tests (plain import() then). */
const BUILT = readAreaFiles();

function readAreaFiles(): AreaFiles | undefined {
  const content = typeof document === 'undefined' ? undefined : document.querySelector<HTMLMetaElement>('meta[name="area-files"]')?.content;
  return content ? (JSON.parse(content) as AreaFiles) : undefined;
}

const fetched = new Set<string>();
const fetching = new Map<string, Promise<void>>();

function fetchFile(url: string, priority: RequestPriority): Promise<void> {
  if (fetched.has(url)) return Promise.resolve();
  let pending = fetching.get(url);
  if (!pending) {
    pending = fetch(url, { priority, credentials: 'same-origin' })
      .then(
        async (response) => {
          reportAnswer();
          if (!response.ok) throw new AreaLoadError(`${url} answered ${response.status}`);
          await response.arrayBuffer(); // read to the end, so the HTTP cache keeps it
          fetched.add(url);
        },
        (cause: unknown) => {
          reportNoAnswer();
          throw new AreaLoadError(`${url} could not be fetched: ${(cause as Error).message}`);
        },
      )
      .finally(() => fetching.delete(url));
    fetching.set(url, pending);
  }
  return pending;
}

const sheets = new Map<string, Promise<void>>();

/** Adds the stylesheet once; resolves when it applies, rejects (and forgets the link) when it could not load. */
export function loadStylesheet(href: string): Promise<void> {
  let done = sheets.get(href);
  if (!done) {
    done = new Promise<void>((resolve, reject) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.onload = () => resolve();
      link.onerror = () => {
        link.remove();
        sheets.delete(href);
        reject(new AreaLoadError(`${href} could not be loaded`));
      };
      document.head.append(link);
    });
    sheets.set(href, done);
  }
  return done;
}

/** The app stylesheet: the shell and every area render only once it applies (never an unstyled page). */
export async function loadAppStyles(priority: RequestPriority = 'high'): Promise<void> {
  if (!BUILT) return;
  await fetchFile(BUILT.css, priority);
  await loadStylesheet(BUILT.css);
}

/**
 * The texts of every screen after the first (scripts/build-texts.ts): the build serves them apart from the
 * first-screen dictionary, so they come with any area. Unbuilt (unit tests) the whole dictionary is loaded.
 */
function loadAppTexts(priority: RequestPriority): Promise<void> {
  return BUILT ? loadDocument('app', priority) : Promise.resolve();
}

type Importer<T> = () => Promise<T>;

/**
 * Loads an area: its scripts and the app stylesheet fetched (at `priority`) and the scripts handed to the module
 * map, all in parallel; then the module imported, which finds everything it imports already there.
 */
export async function loadArea<T>(name: string, importer: Importer<T>, priority: RequestPriority = 'high'): Promise<T> {
  const files = BUILT?.files[name] ?? [];
  await Promise.all([...files.map((url) => fetchFile(url, priority)), loadAppStyles(priority), loadAppTexts(priority)]);
  files.forEach(preloadModule);
  return importer();
}

const preloaded = new Set<string>();

/**
 * Hands a script that is already in the HTTP cache to the browser's module map (parsed, not run), so the
 * later import() needs no request at all. Only after a successful fetch: a failed modulepreload would be
 * remembered by the module map like a failed import().
 */
function preloadModule(url: string): void {
  if (preloaded.has(url)) return;
  preloaded.add(url);
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = url;
  link.fetchPriority = 'low';
  document.head.append(link);
}

/**
 * Fetches areas ahead of need, at low priority, without running them: their scripts end in the module map, the
 * app stylesheet is applied (it changes nothing on the screen it arrives on, see scripts/build-css.ts). A
 * failure is no error: the visit itself will try again.
 */
export function prefetchAreas(names: string[]): void {
  for (const name of names) {
    const files = BUILT?.files[name] ?? [];
    Promise.all(files.map((url) => fetchFile(url, 'low')))
      .then(() => files.forEach(preloadModule))
      .catch(() => undefined);
  }
  loadAppStyles('low').catch(() => undefined);
  loadAppTexts('low').catch(() => undefined);
}

/** After the page has painted: a quarter second more before anything is fetched ahead (the first screen comes first). */
const AFTER_PAINT_MS = 250;

/**
 * Runs `task` once the page has loaded and painted what it shows, and the main thread is idle: prefetching
 * then never competes with the screen itself (its requests start after the form is usable).
 */
export function whenIdle(task: () => void): () => void {
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let frame = 0;
  let idle = 0;
  const run = () => !cancelled && task();
  const afterPaint = () => {
    frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        timer = setTimeout(() => {
          if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(run, { timeout: 2000 });
          else run();
        }, AFTER_PAINT_MS);
      });
    });
  };
  if (document.readyState === 'complete') afterPaint();
  else window.addEventListener('load', afterPaint, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', afterPaint);
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    if (idle && typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
  };
}

type State<P> =
  | { status: 'idle' }
  | { status: 'loading'; promise: Promise<void> }
  | { status: 'ready'; component: ComponentType<P> }
  | { status: 'failed'; error: unknown };

/**
 * React.lazy for an area, except that a failure is not kept: the error reaches the page's error boundary
 * once, and the next render (its "Erneut versuchen", or a later visit) loads again. React.lazy would hand
 * every later render the same rejected promise.
 */
export function lazyArea<P extends object, M>(name: string, importer: Importer<M>, pick: (module: M) => ComponentType<P>): ComponentType<P> {
  let state: State<P> = { status: 'idle' };
  function Area(props: P) {
    if (state.status === 'ready') return createElement(state.component, props);
    if (state.status === 'failed') {
      const { error } = state;
      state = { status: 'idle' };
      throw error;
    }
    if (state.status === 'idle') {
      const promise = loadArea(name, importer).then(
        (module) => {
          state = { status: 'ready', component: pick(module) };
        },
        (error: unknown) => {
          state = { status: 'failed', error };
        },
      );
      state = { status: 'loading', promise };
    }
    throw state.promise;
  }
  Area.displayName = `Area(${name})`;
  return Area;
}
