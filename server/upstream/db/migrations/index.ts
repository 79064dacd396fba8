import type { Migration } from 'kysely';
import * as accounts from './001-accounts.ts';
import * as patients from './002-patients-and-reference-data.ts';

/**
 * Every migration, by name. Names sort in the order they run: 001-099 core (upstream A),
 * 100-199 route families of upstream B. Add a file and one line here; never change a migration that
 * has been committed (data folders out there have run it) - add a new one instead.
 */
export const migrations: Record<string, Migration> = {
  '001-accounts': accounts,
  '002-patients-and-reference-data': patients,
};
