import { afterAll, beforeAll, expect, test } from 'vitest';
import request from 'supertest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Express } from 'express';
import { createApp } from '../../../server/app.ts';
import { CHUNK_JS, ENTRY_JS, makePublicDir, startFakeUpstream, testConfig } from '../../helpers/gateway-fixtures.ts';
import type { FakeUpstream } from '../../helpers/gateway-fixtures.ts';

let publicDir: { dir: string; cleanup: () => void };
let upstream: FakeUpstream;
let app: Express;

beforeAll(async () => {
  publicDir = await makePublicDir();
  upstream = await startFakeUpstream();
  app = createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir });
});
afterAll(async () => {
  await upstream.close();
  publicDir.cleanup();
});

test('an asset deleted after start-up is answered with a JSON 404, not a dropped connection', async () => {
  rmSync(join(publicDir.dir, CHUNK_JS));
  rmSync(join(publicDir.dir, `${CHUNK_JS}.br`), { force: true });
  rmSync(join(publicDir.dir, `${CHUNK_JS}.gz`), { force: true });
  for (const encoding of ['identity', 'br', 'gzip']) {
    const res = await request(app).get(CHUNK_JS).set('Accept-Encoding', encoding);
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.error.code).toBe('NOT_FOUND');
  }
  // Other assets are still served.
  expect((await request(app).get(ENTRY_JS).set('Accept-Encoding', 'identity')).status).toBe(200);
});
