import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import request from 'supertest';
import { API_FAMILIES, type ApiCall } from '../../../contract/catalog.ts';
import { createTestUpstream, type TestUpstream } from '../../helpers/upstream-app.ts';
import { bodyFor, filterFor, LIST_FIELDS, pathSegment } from '../../helpers/upstream-fuzz.ts';
import { issueToken } from '../../../server/upstream/features/auth/repository.ts';
import { hashPassword } from '../../../server/upstream/lib/secrets.ts';

/*
 * Property: no generated filter or body makes any list or write route of the catalogue answer 500, on SQLite
 * and (npm run test:postgres) on PostgreSQL. Every route gets RUNS generated requests as an administrator (who
 * gets furthest into every route); the count of runs and of answers by status class is printed at the end.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const calls = API_FAMILIES.flatMap((f) => f.calls);
const lists = calls.filter((c) => c.method === 'GET' && c.query === 'filter: ListFilter');
const writes = calls.filter((c) => c.method !== 'GET');
/** Calls that end or change the caller's own session or password run as a throwaway account. */
const SELF = new Set(['POST /auth/logout', 'PATCH /auth/me/update-password', 'POST /auth/me/set-password']);

let t: TestUpstream;
let admin: string;
const tally = { runs: 0, byStatus: new Map<string, number>(), fivehundreds: 0 };

beforeAll(async () => {
  t = await createTestUpstream({ rateLimits: { perIp: 1e6, perAccount: 1e6, perAccountCeiling: 1e6 } });
  const at = t.clock.now().toISOString();
  await t.storage.db
    .insertInto('coaches')
    .values({
      id: 'fuzz-auth',
      email: 'fuzz-auth@example.org',
      firstName: 'Fuzz',
      lastName: 'Auth',
      title: '',
      phone: '',
      passwordHash: await hashPassword('Demo-Passwort-1'),
      isAdmin: 0,
      isSuperAdmin: 0,
      isHealthManager: 0,
      isUserLocked: 0,
      emailVerified: 1,
      language: 'de',
      trialEndsAt: null,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  await t.storage.db.insertInto('news').values({ id: 'news-1', title: 'Neu', body: 'Text', publishedAt: at, createdAt: at }).execute();
  admin = await t.login('admin@example.org');
}, 60_000);

afterAll(async () => {
  const statuses = [...tally.byStatus.entries()]
    .sort()
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  console.log(
    `fast-check: ${tally.runs} generated requests over ${lists.length} list and ${writes.length} write routes (${RUNS} runs each); answers ${statuses}; 500s: ${tally.fivehundreds}`,
  );
  await t.close();
});

/**
 * Percent-encodes every code point's UTF-8 bytes, lone surrogates included (as the 3 bytes WTF-8 gives them;
 * encodeURIComponent would throw): the server sees what a sloppy client could really send.
 */
function wtf8(text: string): string {
  let out = '';
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (/^[A-Za-z0-9\-_.~]$/.test(char)) out += char;
    else if (cp < 0x80) out += `%${cp.toString(16).padStart(2, '0')}`;
    else {
      const bytes =
        cp < 0x800
          ? [0xc0 | (cp >> 6), 0x80 | (cp & 63)]
          : cp < 0x10000
            ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
            : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
      out += bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    }
  }
  return out;
}

function fill(call: ApiCall, segments: string[], collection: string): string {
  let i = 0;
  return call.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'collection' ? collection : segments[i++ % segments.length]));
}

async function send(call: ApiCall, path: string, options: { filter?: string; body?: unknown }) {
  let token = admin;
  const label = `${call.method} ${call.path}`;
  if (SELF.has(label)) {
    const kind = label === 'POST /auth/me/set-password' ? 'reset' : 'access';
    token = (await issueToken(t.app.upstream, 'fuzz-auth', kind, 3600)).token;
  }
  let req = request(t.app)[call.method.toLowerCase() as 'get'](`/v2${path}`).set('Authorization', `Bearer ${token}`);
  if (options.filter !== undefined) req = req.query(`filter=${wtf8(options.filter)}`);
  const res = options.body === undefined ? await req : await req.set('Content-Type', 'application/json').send(JSON.stringify(options.body));
  tally.runs++;
  const cls = `${String(res.status)[0]}xx`;
  tally.byStatus.set(cls, (tally.byStatus.get(cls) ?? 0) + 1);
  if (res.status >= 500) tally.fivehundreds++;
  return res;
}

describe('every list route: generated filters never answer 500', () => {
  test.each(lists.map((c) => [`${c.method} ${c.path}`, c] as const))(
    '%s',
    async (_label, call) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(pathSegment, { minLength: 2, maxLength: 2 }),
          fc.constantFrom('event', 'day-evaluation', 'nope'),
          filterFor(LIST_FIELDS[call.path]),
          async (segments, collection, filter) => {
            const res = await send(call, fill(call, segments, collection), { filter });
            expect(res.status, `${fill(call, segments, collection)} filter=${filter} -> ${JSON.stringify(res.body)}`).toBeLessThan(500);
          },
        ),
        { numRuns: RUNS },
      );
    },
    120_000,
  );
});

describe('every write route: generated bodies never answer 500', () => {
  test.each(writes.map((c) => [`${c.method} ${c.path}`, c] as const))(
    '%s',
    async (_label, call) => {
      await fc.assert(
        fc.asyncProperty(fc.array(pathSegment, { minLength: 2, maxLength: 2 }), bodyFor(call.method, call.path), async (segments, { collection, body }) => {
          const path = fill(call, segments, collection);
          const res = await send(call, path, { body: call.method === 'DELETE' ? undefined : body });
          expect(res.status, `${call.method} ${path} ${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBeLessThan(500);
        }),
        { numRuns: RUNS },
      );
    },
    120_000,
  );
});
