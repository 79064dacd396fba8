import { expect } from 'vitest';
import request from 'supertest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../../server/app.ts';
import { MEMORY_LIMIT_BYTES } from '../../../server/static-files.ts';
import { CHUNK_JS, ENTRY_JS, testConfig } from '../../helpers/gateway-fixtures.ts';
import { fakeUpstreamTest } from '../../helpers/gateway-test.ts';

/** Larger than what the gateway holds in memory, so it is streamed from disk per request. */
const LARGE_MAP = '/assets/large-AB12CD34.js.map';

// The file's own public folder: its tests delete assets from it.
const test = fakeUpstreamTest()
  .extend('app', { scope: 'file' }, ({ publicDir, upstream }) => {
    writeFileSync(join(publicDir.dir, LARGE_MAP), JSON.stringify({ version: 3, mappings: 'A'.repeat(MEMORY_LIMIT_BYTES + 1) }));
    return createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir });
  })
  /** The chunk as served before anything was deleted. */
  .extend('chunkBytes', { scope: 'file', auto: true }, async ({ app }) => (await request(app).get(CHUNK_JS).set('Accept-Encoding', 'identity')).text);

test('a small asset deleted after start-up is still served from memory, as it was at start', async ({ app, chunkBytes, publicDir }) => {
  rmSync(join(publicDir.dir, CHUNK_JS));
  rmSync(join(publicDir.dir, `${CHUNK_JS}.br`), { force: true });
  rmSync(join(publicDir.dir, `${CHUNK_JS}.gz`), { force: true });
  for (const encoding of ['identity', 'br', 'gzip']) {
    const res = await request(app).get(CHUNK_JS).set('Accept-Encoding', encoding);
    expect(res.status).toBe(200);
    expect(res.text).toBe(chunkBytes);
  }
});

test('a large asset deleted after start-up is answered with a JSON 404, not a dropped connection', async ({ app, publicDir }) => {
  expect((await request(app).get(LARGE_MAP).set('Accept-Encoding', 'identity')).status).toBe(200);
  rmSync(join(publicDir.dir, LARGE_MAP));
  const res = await request(app).get(LARGE_MAP).set('Accept-Encoding', 'identity');
  expect(res.status).toBe(404);
  expect(res.headers['content-encoding']).toBeUndefined();
  expect(res.body.error.code).toBe('NOT_FOUND');
  // Other assets are still served.
  expect((await request(app).get(ENTRY_JS).set('Accept-Encoding', 'identity')).status).toBe(200);
});
