import { afterAll, beforeAll, expect, test } from 'vitest';
import request from 'supertest';
import { createApp } from '../../../server/app.ts';
import { makePublicDir, testConfig, unusedPort } from '../../helpers/gateway-fixtures.ts';

/* An upstream outage reaches error reporting once (not once per request), and the report carries nothing of the request. */

let publicDir: Awaited<ReturnType<typeof makePublicDir>>;
beforeAll(async () => {
  publicDir = await makePublicDir();
});
afterAll(() => publicDir.cleanup());

test('a refused upstream is reported once a minute, without URL, query or body', async () => {
  const reports: unknown[] = [];
  const app = createApp(testConfig({ UPSTREAM_URL: `http://127.0.0.1:${await unusedPort()}` }), {
    publicDir: publicDir.dir,
    report: (error) => reports.push(error),
  });
  for (let i = 0; i < 5; i++) {
    const res = await request(app).get(`/v2/patients?filter=${encodeURIComponent('{"where":{"lastName":"Geheimname"}}')}`);
    expect(res.status).toBe(502);
  }
  expect(reports).toHaveLength(1);
  const error = reports[0] as Error;
  expect(error.name).toBe('UpstreamError');
  expect(error.message).toBe('upstream unreachable: ECONNREFUSED');
  expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toMatch(/Geheimname|patients|filter/);
});
