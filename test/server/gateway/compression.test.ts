import { describe, expect } from 'vitest';
import { get as httpGet, request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { createApp } from '../../../server/app.ts';
import { xsrfFrom } from '../../helpers/xsrf-pair.ts';
import { listen, rawGet, startFakeUpstream, testConfig } from '../../helpers/gateway-fixtures.ts';
import { publicDirTest } from '../../helpers/gateway-test.ts';

/** An 11 KB page of patients, like the first page of the patient list. */
const LIST = JSON.stringify(
  Array.from({ length: 25 }, (_, i) => ({ id: `pat-${i}`, firstName: 'Anna', lastName: `Muster-${i}`, clinic: 'Reha-Klinik Nord', notes: 'x'.repeat(300) })),
);
const SMALL = JSON.stringify({ ok: true });
const PDF = Buffer.alloc(4096, 7);

/**
 * The fake upstream's answers. `/v2/stream` stays open until `releaseStream()`: the streaming test holds it open until
 * the browser side has seen bytes.
 */
function streamingAnswers() {
  let release: () => void = () => {};
  function answer(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://upstream').pathname;
    if (path === '/v2/list') {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(LIST), 'X-Total-Count': '25' });
      res.end(LIST);
    } else if (path === '/v2/small') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(SMALL) });
      res.end(SMALL);
    } else if (path === '/v2/already-gzipped') {
      const body = gzipSync(LIST);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': body.length });
      res.end(body);
    } else if (path === '/v2/asset') {
      res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': PDF.length });
      res.end(PDF);
    } else if (path === '/v2/no-transform') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store, no-transform' });
      res.end(LIST);
    } else if (path === '/v2/stream') {
      // Chunked, no length: half a megabyte now, the rest only once the client has received compressed bytes.
      res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8' });
      const rows = Array.from({ length: 20_000 }, (_, i) => `${i};Patient ${i};${(i * 7919) % 10007};Reha-Klinik ${i % 13}\n`).join('');
      res.write(rows);
      new Promise<void>((resolve) => (release = resolve)).then(() => res.end('END\n'));
    } else {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{}');
    }
  }
  return { answer, releaseStream: () => release() };
}

const test = publicDirTest
  .extend('answers', { scope: 'file' }, () => streamingAnswers())
  .extend('releaseStream', { scope: 'file' }, ({ answers }) => answers.releaseStream)
  .extend('upstream', { scope: 'file' }, async ({ answers }, { onCleanup }) => {
    const upstream = await startFakeUpstream(answers.answer);
    onCleanup(() => upstream.close());
    return upstream;
  })
  .extend('gateway', { scope: 'file' }, async ({ publicDir, upstream }, { onCleanup }) => {
    const handler = createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir });
    const gateway = await listen(handler);
    onCleanup(() => gateway.close());
    return { ...gateway, handler };
  })
  .extend(
    'get',
    { scope: 'file' },
    ({ gateway }) =>
      (path: string, acceptEncoding?: string) =>
        rawGet(`${gateway.url}${path}`, acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding }),
  );

describe('compression of /v2 answers', () => {
  test('compresses a JSON answer over 1 KB with brotli when the browser accepts it, and says it varies', async ({ get }) => {
    const res = await get('/v2/list', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['x-total-count']).toBe('25');
    expect(brotliDecompressSync(res.body).toString()).toBe(LIST);
    expect(res.body.length).toBeLessThan(LIST.length / 4);
  });

  test('uses gzip for a browser that accepts gzip but not brotli', async ({ get }) => {
    const res = await get('/v2/list', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.body).toString()).toBe(LIST);
  });

  test('sends the answer as it is without Accept-Encoding, or when the browser refuses every coding', async ({ get }) => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const res = await get('/v2/list', accept);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.toString()).toBe(LIST);
    }
  });

  test('leaves answers under 1 KB alone', async ({ get }) => {
    const res = await get('/v2/small', 'br, gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(SMALL);
  });

  test('never compresses twice: an answer the upstream encoded passes through untouched', async ({ get }) => {
    const res = await get('/v2/already-gzipped', 'br, gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.body).toString()).toBe(LIST);
  });

  test('leaves types that do not compress alone (a PDF)', async ({ get }) => {
    const res = await get('/v2/asset', 'br, gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.equals(PDF)).toBe(true);
  });

  test('respects Cache-Control: no-transform', async ({ get }) => {
    const res = await get('/v2/no-transform', 'br, gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(LIST);
  });

  test('answers HEAD without a compressed body', async ({ gateway }) => {
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      httpRequest(`${gateway.url}/v2/list`, { method: 'HEAD', headers: { 'Accept-Encoding': 'br' } }, resolve)
        .on('error', reject)
        .end();
    });
    res.resume();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  test('streams: compressed bytes reach the browser while the upstream is still sending', async ({ gateway, releaseStream }) => {
    const { headers, body } = await new Promise<{ headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      httpGet(`${gateway.url}/v2/stream`, { headers: { 'Accept-Encoding': 'br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          releaseStream(); // the upstream ends only now: a gateway that buffered the whole answer never gets here
        });
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      }).on('error', reject);
    });
    expect(headers['content-encoding']).toBe('br');
    const text = brotliDecompressSync(body).toString();
    expect(text.startsWith('0;Patient 0;')).toBe(true);
    expect(text.endsWith('END\n')).toBe(true);
  });

  test('compresses the answer to a call with a body too (the proxy path for bodies), and leaves a small one without Vary', async ({ gateway }) => {
    const { cookie, token } = await xsrfFrom(gateway.handler);
    const post = (path: string) =>
      new Promise<{ headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
        const body = JSON.stringify({ q: 1 });
        const headers = {
          Cookie: cookie,
          'X-XSRF-TOKEN': token,
          'Accept-Encoding': 'br',
          'Content-Type': 'application/json',
          'Content-Length': String(body.length),
        };
        httpRequest(`${gateway.url}${path}`, { method: 'POST', headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        })
          .on('error', reject)
          .end(body);
      });
    const large = await post('/v2/list');
    expect(large.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(large.body).toString()).toBe(LIST);
    const small = await post('/v2/small');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
    expect(small.body.toString()).toBe(SMALL);
  });

  test('does not touch pages and assets, which are precompressed by the build', async ({ get }) => {
    const page = await get('/login', 'gzip');
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers.vary).toBe('Accept-Encoding, User-Agent, Cookie');
    expect(gunzipSync(page.body).toString()).toContain('<!DOCTYPE html>');
  });
});
