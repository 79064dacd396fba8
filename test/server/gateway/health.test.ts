import { describe, expect } from 'vitest';
import request from 'supertest';
import { createApp } from '../../../server/app.ts';
import { startFakeUpstream, testConfig, unusedPort } from '../../helpers/gateway-fixtures.ts';
import { publicDirTest } from '../../helpers/gateway-test.ts';

const test = publicDirTest;

describe('health endpoints', () => {
  test('/healthz answers JSON while the upstream is down', async ({ publicDir }) => {
    const app = createApp(testConfig({ UPSTREAM_URL: `http://127.0.0.1:${await unusedPort()}` }), { publicDir: publicDir.dir });
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('/readyz is 200 when the upstream answers, probing its version call', async ({ publicDir }) => {
    const upstream = await startFakeUpstream((_req, res) => {
      res.writeHead(401).end();
    });
    const app = createApp(testConfig({ UPSTREAM_URL: `${upstream.url}/prefix` }), { publicDir: publicDir.dir });
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ready' });
    expect(upstream.requests[0].url).toBe('/prefix/v2/app-settings/version');
    await upstream.close();
  });

  test('/readyz is 503 JSON when the upstream is unreachable', async ({ publicDir }) => {
    const app = createApp(testConfig({ UPSTREAM_URL: `http://127.0.0.1:${await unusedPort()}` }), { publicDir: publicDir.dir });
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', upstream: 'unreachable' });
  });

  test('/readyz is 503 when the upstream answers with a server error', async ({ publicDir }) => {
    const upstream = await startFakeUpstream((_req, res) => {
      res.writeHead(500).end();
    });
    const app = createApp(testConfig({ UPSTREAM_URL: upstream.url }), { publicDir: publicDir.dir });
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    await upstream.close();
  });
});
