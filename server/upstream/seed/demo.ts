import type { Db } from '../db/index.ts';
import { hashPassword } from '../lib/secrets.ts';

export const DEMO_PASSWORD = 'Demo-Passwort-1';

/** The demo instance (CONTRACT.md demo accounts plus a realistic German aftercare team). */
export async function seedDemo(db: Db, options: { now: Date }): Promise<void> {
  const at = options.now.toISOString();
  // One hash for all demo accounts: they share a published password anyway, and seeding stays fast.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const base = { title: '', phone: '', passwordHash, isSuperAdmin: 0 as const, emailVerified: 1 as const, language: 'de', trialEndsAt: null, createdAt: at, updatedAt: at };
  await db.insertInto('coaches').values([
    { ...base, id: 'coach-admin', email: 'admin@example.org', firstName: 'Anna', lastName: 'Admin', isAdmin: 1, isHealthManager: 0, isUserLocked: 0 },
    { ...base, id: 'coach-demo', email: 'coach@example.org', firstName: 'Clara', lastName: 'Coach', isAdmin: 0, isHealthManager: 0, isUserLocked: 0 },
    { ...base, id: 'coach-health', email: 'health@example.org', firstName: 'Hans', lastName: 'Gesund', isAdmin: 0, isHealthManager: 1, isUserLocked: 0 },
    { ...base, id: 'coach-locked', email: 'locked@example.org', firstName: 'Lena', lastName: 'Gesperrt', isAdmin: 0, isHealthManager: 0, isUserLocked: 1 },
  ]).execute();
}
