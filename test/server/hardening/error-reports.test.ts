import { expect } from 'vitest';
import request from 'supertest';
import { createApp } from '../../../server/app.ts';
import { testConfig, unusedPort } from '../../helpers/gateway-fixtures.ts';
import { publicDirTest } from '../../helpers/gateway-test.ts';

/* An upstream outage reaches error reporting once (not once per request), and the report carries nothing of the request. */

const test = publicDirTest;

test('a refused upstream is reported once a minute, without URL, query or body', async ({ publicDir }) => {
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
