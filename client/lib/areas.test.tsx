import { afterEach, describe, expect, test, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/preact';
import { Suspense, type ComponentType } from 'react';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { AreaLoadError, lazyArea } from './areas.ts';
import { reportAnswer, reportNoAnswer } from './connection.ts';

afterEach(() => vi.unstubAllGlobals());

const page = (Area: ReturnType<typeof lazyArea<object, unknown>>, key = 'k') => (
  <ErrorBoundary resetKey={key}>
    <Suspense fallback={<p>Wird geladen …</p>}>
      <Area />
    </Suspense>
  </ErrorBoundary>
);

describe('an area whose code could not be fetched', () => {
  test('says it is the connection, and loads on "Erneut versuchen" (the failure is not kept)', async () => {
    const importer = vi
      .fn()
      .mockRejectedValueOnce(new AreaLoadError('/assets/x.js could not be fetched'))
      .mockResolvedValueOnce({ default: () => <h1>Bereich</h1> });
    const Area = lazyArea('one', importer, (m: { default: ComponentType }) => m.default);
    render(page(Area));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Keine Verbindung zum Server');
    fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByRole('heading', { name: 'Bereich' })).toBeTruthy();
    expect(importer).toHaveBeenCalledTimes(2);
  });

  test('loads on the next visit', async () => {
    const importer = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))
      .mockResolvedValueOnce({ default: () => <h1>Bereich</h1> });
    const Area = lazyArea('two', importer, (m: { default: ComponentType }) => m.default);
    const { rerender } = render(page(Area, '/a'));
    expect(await screen.findByRole('alert')).toBeTruthy();
    rerender(page(Area, '/b'));
    expect(await screen.findByRole('heading', { name: 'Bereich' })).toBeTruthy();
  });

  test('loads by itself once the connection is back', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    const importer = vi
      .fn()
      .mockRejectedValueOnce(new AreaLoadError('gone'))
      .mockResolvedValueOnce({ default: () => <h1>Bereich</h1> });
    const Area = lazyArea('three', importer, (m: { default: ComponentType }) => m.default);
    render(page(Area));
    expect(await screen.findByRole('alert')).toBeTruthy();
    act(() => {
      reportNoAnswer();
      reportAnswer();
    });
    expect(await screen.findByRole('heading', { name: 'Bereich' })).toBeTruthy();
  });

  test('a crash in the screen itself keeps the general message', async () => {
    const Area = lazyArea(
      'four',
      () =>
        Promise.resolve({
          default: () => {
            throw new Error('bug');
          },
        }),
      (m: { default: ComponentType }) => m.default,
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(page(Area));
    expect((await screen.findByRole('alert')).textContent).toContain('Ein unerwarteter Fehler ist aufgetreten');
  });
});

describe('an area of the built client', () => {
  test('fetches the files the page names for it at once and hands its scripts to the module map before importing it', async () => {
    vi.resetModules();
    const scripts = ['/assets/one-BBBBBBBB.js', '/assets/chunk-CCCCCCCC.js'];
    const meta = Object.assign(document.createElement('meta'), { name: 'area-files' });
    meta.content = JSON.stringify({ css: '/assets/main-AAAAAAAA.css', files: { one: scripts } });
    document.head.append(meta);
    const fetched: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        fetched.push(url);
        return new Response('{}');
      }),
    );
    // happy-dom loads no CSS: the app stylesheet applies as soon as it is added.
    const append = document.head.append.bind(document.head);
    vi.spyOn(document.head, 'append').mockImplementation((...nodes) => {
      for (const node of nodes) {
        if (node instanceof HTMLLinkElement && node.rel === 'stylesheet') queueMicrotask(() => node.onload?.(new Event('load')));
        else append(node);
      }
    });
    try {
      const { loadArea } = await import('./areas.ts');
      const preloaded = () => Array.from(document.head.querySelectorAll('link[rel=modulepreload]'), (link) => link.getAttribute('href'));
      expect(await loadArea('one', async () => preloaded())).toEqual(scripts);
      expect(fetched).toEqual(expect.arrayContaining([...scripts, '/assets/main-AAAAAAAA.css']));
    } finally {
      vi.restoreAllMocks();
      for (const element of document.head.querySelectorAll('meta, link')) element.remove();
    }
  });
});
