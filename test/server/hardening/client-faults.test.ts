// @vitest-environment happy-dom
import '../../helpers/client-setup.ts';
import { test as baseTest, describe, expect, vi } from 'vitest';
import { createElement } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { request as httpRequest } from 'node:http';
import { XSRF_SECRET, spawnPlainGateway } from '../../helpers/gateway-spawn.ts';
import { startFaultyUpstream } from '../../helpers/faulty-upstream.ts';
import type { FaultMode } from '../../helpers/faulty-upstream.ts';
import { Comments, draftKey } from '../../../client/features/patient/detail/Comments.tsx';
import { flushDrafts } from '../../../client/state/sealed-drafts.ts';
import { offeredAfterReload, signedInCoach } from '../../helpers/client-drafts.ts';

/*
 * The client side of an upstream fault, end to end: the real comment box (client/features/patient) calls the
 * real API layer, whose fetch is bridged over node:http to the real gateway process, in front of an upstream
 * that fails on demand. The coach must see a German message with a retry button, the typed text must stay
 * (in the box and, sealed under the key the gateway hands this session, in the draft storage), and one click must
 * send exactly one POST.
 */

/** A browser's fetch (cookies kept, body errors surface while reading) to the gateway, over node:http. */
function bridgeFetch(base: string, cookies: Map<string, string>) {
  return (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), base);
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
    if (cookies.size) headers.Cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { method: init.method ?? 'GET', headers }, (res) => {
        for (const line of res.headers['set-cookie'] ?? []) {
          const [pair] = line.split(';');
          const eq = pair.indexOf('=');
          cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
          if (pair.startsWith('XSRF-TOKEN=')) document.cookie = `${pair}; path=/`;
        }
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            res.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
            res.on('end', () => (res.complete ? controller.close() : controller.error(new TypeError('network error'))));
            res.on('error', () => controller.error(new TypeError('network error')));
          },
        });
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
        resolve(new Response(res.statusCode === 204 ? null : body, { status: res.statusCode, headers: responseHeaders }));
      });
      req.on('error', () => reject(new TypeError('Failed to fetch')));
      req.end(typeof init.body === 'string' ? init.body : undefined);
    });
  };
}

// One upstream and one gateway process for the file; each test sets the upstream's fault itself.
const test = baseTest
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads the fixtures a fixture needs from its first parameter
  .extend('upstream', { scope: 'file' }, async ({}, { onCleanup }) => {
    const upstream = await startFaultyUpstream();
    onCleanup(() => upstream.close());
    return upstream;
  })
  .extend('gateway', { scope: 'file' }, async ({ upstream }, { onCleanup }) => {
    const gateway = await spawnPlainGateway({ UPSTREAM_URL: upstream.url, PROXY_TIMEOUT_MS: '400', XSRF_SECRET });
    onCleanup(async () => {
      gateway.child.kill('SIGTERM');
      await gateway.exited;
    });
    return gateway;
  })
  /** The cookies of the client's fetch, which goes to the gateway for the whole file. */
  .extend('cookies', { scope: 'file' }, async ({ gateway }, { onCleanup }) => {
    const cookies = new Map<string, string>();
    const fetch = bridgeFetch(gateway.url, cookies);
    vi.stubGlobal('fetch', fetch);
    onCleanup(() => {
      vi.unstubAllGlobals();
    });
    // As a browser gets it: with the page.
    await fetch('/login');
    return cookies;
  });

// Starting the gateway process may take longer than a test may: the file's fixtures start here, with a hook's time.
test.beforeAll(({ cookies }) => {
  expect(cookies.has('XSRF-TOKEN')).toBe(true);
}, 60_000);

test.beforeEach(async ({ upstream }) => {
  await upstream.setMode('ok');
});

const box = () => screen.getByLabelText('Neuer Kommentar') as HTMLTextAreaElement;

// The German texts (locales/de.json, dataState.*) the coach reads for each kind of failure.
const SERVER_DOWN = 'Der Server antwortet gerade nicht. Bitte versuchen Sie es gleich noch einmal.';
const BROKEN_ANSWER = 'Keine Verbindung zum Server. Bitte prüfen Sie Ihre Internetverbindung.';
const INVALID_ANSWER = 'Der Server hat eine unerwartete Antwort geschickt.';

const faults: { mode: FaultMode; message: string[] }[] = [
  { mode: 'down', message: [SERVER_DOWN] },
  { mode: 'reset', message: [SERVER_DOWN] },
  { mode: 'garbage', message: [SERVER_DOWN] },
  { mode: 'slow', message: [SERVER_DOWN] },
  // Half an answer: the browser's fetch fails while reading the body; either wording is clear and honest.
  { mode: 'midbody', message: [BROKEN_ANSWER, INVALID_ANSWER] },
];

describe.each(faults)('saving a comment while the upstream is $mode', ({ mode, message }) => {
  test('shows a German message with a retry, keeps the text, sent one POST, and the retry saves it', async ({ upstream }) => {
    signedInCoach('me');
    render(createElement(Comments, { patientId: 'p1', userId: 'me' }));
    await screen.findByText('Noch keine Kommentare.');
    const text = `Telefonat am Montag: stabil (${mode})`;
    fireEvent.input(box(), { target: { value: text } });
    await flushDrafts();

    await upstream.setMode(mode);
    const postsBefore = upstream.posts().length;
    fireEvent.click(screen.getByRole('button', { name: 'Kommentar speichern' }));

    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert.textContent).toContain('Der Kommentar wurde nicht gespeichert');
    expect(
      message.some((m) => alert.textContent?.includes(m)),
      alert.textContent ?? '',
    ).toBe(true);
    expect(box().value).toBe(text);
    expect(upstream.posts().length - postsBefore).toBe(mode === 'down' ? 0 : 1);

    await upstream.setMode('ok');
    expect(await offeredAfterReload(draftKey('me', 'p1'))).toBe(text);
    expect(JSON.stringify(localStorage)).not.toContain('Telefonat');
    fireEvent.click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
    await screen.findByText(text, { selector: 'p' });
    await waitFor(() => expect(box().value).toBe(''));
    expect(localStorage.getItem(draftKey('me', 'p1'))).toBeNull();
    const sent = upstream
      .posts()
      .slice(postsBefore)
      .filter((p) => p.mode === 'ok');
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0].body)).toEqual({ patientId: 'p1', text });
  }, 20_000);
});
