import { expect, test } from 'vitest';
import { storageBefore } from '../../helpers/upstream-migrations.ts';
import { migrate } from '../../../server/upstream/db/index.ts';
import { migrations } from '../../../server/upstream/db/migrations/index.ts';

// Migration 109 (pendingEmail, the address a mailed link went to) on a data folder that already has accounts and
// links out; the test:postgres run repeats it on PostgreSQL.

test('links already mailed keep working: they are bound to the address the account has; sessions are bound to none', async () => {
  const { db, schema, close } = await storageBefore('111-pending-email');
  try {
    const at = '2026-11-22T09:00:00.000Z';
    await db
      .insertInto('coaches')
      .values({ id: 'c', email: 'c@example.org', firstName: 'C', lastName: 'Test', passwordHash: null, language: 'de', createdAt: at, updatedAt: at })
      .execute();
    const token = (id: string, kind: string) => ({ id, coachId: 'c', kind, createdAt: at, expiresAt: '2026-11-23T09:00:00.000Z', usedAt: null });
    await db
      .insertInto('access_tokens')
      .values([token('login', 'access'), token('reset', 'reset'), token('verify', 'verify')])
      .execute();
    await migrate(db, schema);
    const rows = await db.selectFrom('access_tokens').select(['id', 'sentTo']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'login', sentTo: null },
      { id: 'reset', sentTo: 'c@example.org' },
      { id: 'verify', sentTo: 'c@example.org' },
    ]);
    expect(await db.selectFrom('coaches').select('pendingEmail').executeTakeFirst()).toEqual({ pendingEmail: null });

    await migrations['111-pending-email'].down!(db);
    await expect(db.selectFrom('coaches').select('pendingEmail').execute()).rejects.toThrow();
    await expect(db.selectFrom('access_tokens').select('sentTo').execute()).rejects.toThrow();
    expect(await db.selectFrom('access_tokens').select('id').execute()).toHaveLength(3);
  } finally {
    await close();
  }
});
