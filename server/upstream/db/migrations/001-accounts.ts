import type { Kysely } from 'kysely';

// Migrations use only the schema builder and portable column types (text, integer, real), so they run
// unchanged on PostgreSQL. Booleans are integer 0/1, timestamps ISO text.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('coaches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('firstName', 'text', (c) => c.notNull())
    .addColumn('lastName', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('passwordHash', 'text')
    .addColumn('isAdmin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('isSuperAdmin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('isHealthManager', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('isUserLocked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('emailVerified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('de'))
    .addColumn('trialEndsAt', 'text')
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('coachId', 'text', (c) => c.notNull().references('coaches.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('expiresAt', 'text', (c) => c.notNull())
    .addColumn('usedAt', 'text')
    .execute();
  await db.schema.createIndex('access_tokens_coach').on('access_tokens').column('coachId').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('access_tokens').execute();
  await db.schema.dropTable('coaches').execute();
}
