import { expect, test } from 'vitest';
import pg from 'pg';
import { DEMO_PASSWORD, Session, startStack } from '../../helpers/gateway-stack.ts';

/*
 * The whole stack on PostgreSQL: the gateway forks the built-in upstream with DATABASE_URL, which migrates and
 * seeds the database and serves from it. Runs in `npm run test:postgres` (a fresh database per run); skipped
 * without DATABASE_URL.
 */

test.skipIf(!process.env.DATABASE_URL)(
  'gateway + built-in upstream on PostgreSQL: 200 concurrent writes are all stored',
  async () => {
    const stack = await startStack({ DATABASE_URL: process.env.DATABASE_URL!, LOG_LEVEL: 'warn' });
    try {
      const session = new Session(stack.url);
      await session.login('coach@example.org', DEMO_PASSWORD);
      const patients = (await (await session.fetch('/v2/patients')).json()) as { id: string }[];
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => session.fetch('/v2/comments', { method: 'POST', body: { patientId: patients[0].id, text: `pg-stack ${i}` } })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(200).fill(201));
      const ids = await Promise.all(answers.map(async (a) => ((await a.json()) as { id: string }).id));
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      try {
        const { rows } = await client.query('select count(*)::int as n from comments where id = any($1)', [ids]);
        expect(rows[0].n).toBe(200);
      } finally {
        await client.end();
      }
    } finally {
      expect(await stack.stop()).toEqual({ code: 0, signal: null });
    }
  },
  60_000,
);
