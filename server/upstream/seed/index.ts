import type { Logger } from 'pino';
import type { Db } from '../db/index.ts';
import { hashPassword, newId } from '../lib/secrets.ts';
import { seedDemo } from './demo.ts';

export interface PrepareOptions {
  demoData: boolean;
  adminEmail?: string;
  adminPassword?: string;
  logger?: Logger;
  /** Clock for demo data (defaults to now); tests pin it. */
  now?: Date;
}

/**
 * Makes sure the instance can be used: on an empty database with demo data on, the demo instance;
 * the administrator from ADMIN_EMAIL/ADMIN_PASSWORD when given and not there yet. Throws one line that
 * says what to set when no administrator exists at all.
 */
export async function prepareData(db: Db, options: PrepareOptions): Promise<void> {
  const now = options.now ?? new Date();
  const anyCoach = await db.selectFrom('coaches').select('id').limit(1).executeTakeFirst();
  if (!anyCoach && options.demoData) {
    const started = Date.now();
    await seedDemo(db, { now });
    options.logger?.info({ ms: Date.now() - started }, 'demo data seeded');
  }
  if (options.adminEmail && options.adminPassword) {
    const email = options.adminEmail.toLowerCase();
    const existing = await db.selectFrom('coaches').select('id').where('email', '=', email).executeTakeFirst();
    if (!existing) {
      const at = now.toISOString();
      await db
        .insertInto('coaches')
        .values({
          id: newId(),
          email,
          firstName: 'Admin',
          lastName: 'Administrator',
          title: '',
          phone: '',
          passwordHash: await hashPassword(options.adminPassword),
          isAdmin: 1,
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
      options.logger?.info('administrator from ADMIN_EMAIL created');
    }
  }
  const admin = await db
    .selectFrom('coaches')
    .select('id')
    .where((eb) => eb.or([eb('isAdmin', '=', 1), eb('isSuperAdmin', '=', 1)]))
    .limit(1)
    .executeTakeFirst();
  if (!admin) {
    throw new Error('No administrator exists: set ADMIN_EMAIL and ADMIN_PASSWORD (or DEMO_DATA=true on an empty data folder) and start again');
  }
}
