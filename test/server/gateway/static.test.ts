import { describe, expect } from 'vitest';
import request from 'supertest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../../server/app.ts';
import { AREAS } from '../../../client/areas.ts';
import { CHUNK_JS, ENTRY_CSS, ENTRY_JS, listen, rawGet, testConfig } from '../../helpers/gateway-fixtures.ts';
import { fakeUpstreamTest } from '../../helpers/gateway-test.ts';

const test = fakeUpstreamTest()
  .extend('app', { scope: 'file' }, ({ publicDir, upstream }) =>
    createApp(testConfig({ UPSTREAM_URL: upstream.url, APP_TITLE: '"Praxis <Nord> & Süd"' }), { publicDir: publicDir.dir }),
  )
  /** The same gateway listening on a port, for requests supertest would decode. */
  .extend('served', { scope: 'file' }, async ({ app }, { onCleanup }) => {
    const served = await listen(app);
    onCleanup(() => served.close());
    return served;
  })
  .extend(
    'raw',
    { scope: 'file' },
    ({ served }) =>
      (path: string, acceptEncoding: string) =>
        rawGet(`${served.url}${path}`, { 'Accept-Encoding': acceptEncoding }),
  );

describe('the page preloads the dictionary of the chosen language', () => {
  test('German without a lang cookie', async ({ app }) => {
    const res = await request(app).get('/login');
    expect(res.text).toContain('<html lang="de">');
    expect(res.text).toContain('<link rel="preload" href="/assets/i18n/de.json"');
  });

  test('French when the lang cookie says fr, and only French', async ({ app }) => {
    const res = await request(app).get('/login').set('Cookie', 'lang=fr');
    expect(res.text).toContain('<html lang="fr">');
    expect(res.text).toContain('<link rel="preload" href="/assets/i18n/fr.json"');
    expect(res.text).not.toContain('i18n/de.json');
    expect(res.headers.vary).toMatch(/Cookie/);
  });

  test('German when the lang cookie names no known language', async ({ app }) => {
    const res = await request(app).get('/login').set('Cookie', 'lang=../../etc');
    expect(res.text).toContain('<link rel="preload" href="/assets/i18n/de.json"');
  });
});

describe('hashed assets', () => {
  test('are cached for a year as immutable', async ({ app }) => {
    const res = await request(app).get(ENTRY_JS).set('Accept-Encoding', 'identity');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  test('are served brotli-compressed when the browser accepts br, with Vary', async ({ raw, publicDir }) => {
    const res = await raw(ENTRY_JS, 'gzip, deflate, br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(brotliDecompressSync(res.body).toString()).toBe(readFileSync(join(publicDir.dir, ENTRY_JS), 'utf8'));
  });

  test('fall back to gzip when br is not accepted', async ({ raw }) => {
    const res = await raw(ENTRY_CSS, 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(gunzipSync(res.body).toString()).toContain('body{color:#123}');
  });

  test('are sent uncompressed when the browser accepts neither', async ({ app }) => {
    const res = await request(app).get(CHUNK_JS).set('Accept-Encoding', 'identity');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toContain('export const chunk=1');
  });

  test('honour q=0 for br', async ({ raw }) => {
    const res = await raw(ENTRY_JS, 'br;q=0, gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  test('name their source map in a SourceMap header (the code carries no comment that would name itself)', async ({ app }) => {
    expect((await request(app).get(ENTRY_JS)).headers.sourcemap).toBe(`${ENTRY_JS}.map`);
    expect((await request(app).get(CHUNK_JS)).headers.sourcemap).toBeUndefined();
  });

  test('source maps are revalidated, not immutable: their name comes from their script, not from their own bytes', async ({ app }) => {
    const res = await request(app).get(`${ENTRY_JS}.map`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toBeTruthy();
  });

  test('binary assets keep their type and are not compressed', async ({ app }) => {
    const res = await request(app).get('/assets/logo-QR34ST56.png').set('Accept-Encoding', 'br');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  test('an unknown /assets/ path is a JSON 404, never the page', async ({ app }) => {
    for (const path of ['/assets/main-ZZZZZZZZ.js', '/assets/nothing', '/assets/i18n/xx.json']) {
      const res = await request(app).get(path).set('Accept', 'text/html');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.text).not.toContain('<html');
    }
  });
});

describe('locale files', () => {
  test('are served at /assets/i18n/<lang>.json, revalidated, precompressed', async ({ raw }) => {
    const res = await raw('/assets/i18n/de.json', 'br');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toBeTruthy();
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(res.body).toString())).toEqual({ login: { title: 'Anmelden' } });
  });

  test('answer 304 to a matching If-None-Match', async ({ app }) => {
    const first = await request(app).get('/assets/i18n/de.json').set('Accept-Encoding', 'gzip');
    const second = await request(app).get('/assets/i18n/de.json').set('Accept-Encoding', 'gzip').set('If-None-Match', first.headers.etag);
    expect(second.status).toBe(304);
  });
});

describe('the page', () => {
  const routes = [
    '/',
    '/login',
    '/dashboard',
    '/create-access',
    '/patient',
    '/patient/123',
    '/admin',
    '/settings',
    '/information',
    '/stats',
    '/export',
    '/news-dashboard',
    '/news-dashboard?id=7',
    '/print/patient?id=5',
    '/print/access-code?code=ABC&patientId=5',
    '/reset-password',
    '/reset-password?access_token=abc',
    '/reset-password/extra',
    '/coach-reset-password',
  ];
  test.for(routes)('%s gets index.html with status 200', async (path, { app }) => {
    const res = await request(app).get(path).set('Accept-Encoding', 'identity');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain(`<script type="module" src="${ENTRY_JS}"></script>`);
  });

  test('is not cached without revalidation and carries an ETag; a matching ETag gives 304', async ({ app }) => {
    const res = await request(app).get('/login').set('Accept-Encoding', 'identity');
    expect(res.headers['cache-control']).toMatch(/no-cache/);
    expect(res.headers.etag).toBeTruthy();
    const again = await request(app).get('/login').set('If-None-Match', res.headers.etag);
    expect(again.status).toBe(304);
  });

  test('is sent compressed when accepted', async ({ raw }) => {
    const res = await raw('/login', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.body).toString()).toContain('<!DOCTYPE html>');
  });

  // The gateway reads the same list as the client's route table (contract/pages.ts): a new area needs no second entry.
  test.for(Object.values(AREAS).map((area) => `${area.path}/below`))('%s, below a client area, gets the page with status 200', async (path, { app }) => {
    expect((await request(app).get(path).set('Accept-Encoding', 'identity')).status).toBe(200);
  });

  test.for(['/patients', '/loginx', '/print', '/dashboard-x'])("%s, beside the client's paths, gets the page with status 404", async (path, { app }) => {
    expect((await request(app).get(path).set('Accept-Encoding', 'identity')).status).toBe(404);
  });

  test('an unknown path gets the page with status 404 so the client shows its not-found screen', async ({ app }) => {
    const res = await request(app).get('/no-such-screen').set('Accept-Encoding', 'identity');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<div id="app"></div>');
  });

  test('the title has quotation marks stripped, is HTML-escaped and reaches the client as a meta tag', async ({ app }) => {
    const res = await request(app).get('/login').set('Accept-Encoding', 'identity');
    expect(res.text).toContain('<title>Praxis &lt;Nord&gt; &amp; Süd</title>');
    expect(res.text).toContain('<meta name="app-title" content="Praxis &lt;Nord&gt; &amp; Süd">');
    expect(res.text).not.toContain('%APP_TITLE%');
  });

  test('contains no inline script and links the CSS and preloads', async ({ app }) => {
    const res = await request(app).get('/').set('Accept-Encoding', 'identity');
    const scripts = res.text.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/^<script type="module" src="[^"]+"><\/script>$/);
    expect(res.text).toContain(`<link rel="stylesheet" href="${ENTRY_CSS}">`);
    expect(res.text).toContain(`<link rel="modulepreload" href="${CHUNK_JS}">`);
    expect(res.text).not.toMatch(/\sstyle=/);
  });

  test('has no sentry-dsn meta tag when SENTRY_DSN is unset, and one when it is set', async ({ app, upstream, publicDir }) => {
    const without = await request(app).get('/').set('Accept-Encoding', 'identity');
    expect(without.text).not.toContain('sentry-dsn');
    const withDsn = createApp(testConfig({ UPSTREAM_URL: upstream.url, SENTRY_DSN: 'https://abc@o1.ingest.example.io/42' }), { publicDir: publicDir.dir });
    const res = await request(withDsn).get('/').set('Accept-Encoding', 'identity');
    expect(res.text).toContain('<meta name="sentry-dsn" content="https://abc@o1.ingest.example.io/42">');
  });

  test('the default title is CL', async ({ upstream, publicDir }) => {
    const plain = createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir });
    const res = await request(plain).get('/').set('Accept-Encoding', 'identity');
    expect(res.text).toContain('<title>CL</title>');
  });

  test('static files from static/ are served at the root', async ({ app }) => {
    const res = await request(app).get('/favicon.svg');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
  });

  test('answers 503 with a clear message when the client was never built', async ({ upstream, publicDir }) => {
    const bare = createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: join(publicDir.dir, 'missing') });
    const res = await request(bare).get('/login');
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('CLIENT_NOT_BUILT');
  });
});

describe('other methods', () => {
  test('POST to a page path is a JSON 404', async ({ app }) => {
    const res = await request(app).post('/login').send('x');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });
});
