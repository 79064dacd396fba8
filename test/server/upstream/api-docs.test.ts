import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import request from 'supertest';
import { API_FAMILIES } from '../../../contract/catalog.ts';
import { DOCS_PATH, renderApiDocs, renderReadme } from '../../../scripts/api-docs.ts';
import { README_PATH } from '../../../scripts/upstream-guide.ts';
import { fileRowsTest } from '../../helpers/upstream-rows.ts';

const test = fileRowsTest();

test('docs/api.md matches the schemas and the call catalogue (run `npm run docs:api` after changing either)', async () => {
  expect(readFileSync(DOCS_PATH, 'utf8')).toBe(await renderApiDocs());
}, 30_000);

test('README.md "Using your own API" is generated from the same schemas and reading rules (run `npm run docs:api`)', async () => {
  const readme = readFileSync(README_PATH, 'utf8');
  expect(readme).toBe(await renderReadme());
  // What the section says comes from client/data/reading.ts, e.g. a coach needs only id and email.
  expect(readme).toMatch(/\| Coach \| [^|]+ \| `id`, `email` \| `firstName` \(""\)/);
  expect(readme).toMatch(/\| Me \| GET \/auth\/me \| `id`, `email`, `isUserLocked`, `isAdmin`, `isSuperAdmin`, `isHealthManager` \|/);
  expect(readme).toMatch(/npm run check:upstream -- /);
}, 30_000);

test('the catalogue lists the 104 calls of docs/product.md#calls, the audit log and ending the other sessions once each', () => {
  const calls = API_FAMILIES.flatMap((f) => f.calls.map((c) => `${c.method} ${c.path}`));
  expect(new Set(calls).size).toBe(calls.length);
  expect(calls).toHaveLength(106);
  expect(calls).toContain('GET /audit-log');
  expect(calls).toContain('POST /auth/me/end-other-sessions');
});

const calls = API_FAMILIES.flatMap((f) => f.calls);
test.for(calls.map((c) => [`${c.method} ${c.path}`, c] as const))('%s is served by the built-in upstream', async ([_name, call], { u }) => {
  const path = call.path.replace('{collection}', 'event').replace(/\{\w+\}/g, 'x');
  // Without a token: a routed call answers 401 (or, for public calls, 400/404 for the missing input);
  // only a path that no route knows answers UNKNOWN_PATH.
  const res = await request(u.app)[call.method.toLowerCase() as 'get'](`/v2${path}`);
  expect(res.body?.error?.code).not.toBe('UNKNOWN_PATH');
  if (call.permission !== 'public' && call.permission !== 'reset-link') expect(res.status).toBe(401);
});
