import type { Logger } from 'pino';
import type { Db } from '../db/index.ts';
import { hashPassword, newId } from '../lib/secrets.ts';
import { anyAdministrator, anyCoach, findCoachByEmail, insertCoaches } from '../features/coaches/repository.ts';
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
  if (!(await anyCoach(db)) && options.demoData) {
    const started = Date.now();
    await seedDemo(db, { now });
    options.logger?.info({ ms: Date.now() - started }, 'demo data seeded');
  }
  if (options.adminEmail && options.adminPassword) await ensureAdministrator(db, options.adminEmail, options.adminPassword, now, options.logger);
  if (!(await anyAdministrator(db))) {
    throw new Error('No administrator exists: set ADMIN_EMAIL and ADMIN_PASSWORD (or DEMO_DATA=true on an empty data folder) and start again');
  }
}

/** The administrator of ADMIN_EMAIL/ADMIN_PASSWORD, made once: an existing account with that address stays as it is. */
async function ensureAdministrator(db: Db, adminEmail: string, password: string, now: Date, logger: Logger | undefined): Promise<void> {
  const email = adminEmail.toLowerCase();
  if (await findCoachByEmail(db, email)) return;
  const at = now.toISOString();
  await insertCoaches(db, [
    {
      id: newId(),
      email,
      firstName: 'Admin',
      lastName: 'Administrator',
      title: '',
      phone: '',
      passwordHash: await hashPassword(password),
      isAdmin: 1,
      isSuperAdmin: 0,
      isHealthManager: 0,
      isUserLocked: 0,
      emailVerified: 1,
      language: 'de',
      trialEndsAt: null,
      createdAt: at,
      updatedAt: at,
    },
  ]);
  logger?.info('administrator from ADMIN_EMAIL created');
}
