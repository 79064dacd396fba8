import type { Kysely } from 'kysely';

// The audit log (who changed which record when, before and after of the changed fields) and the shared
// rate-limit counters. Both only grow through the routes; neither is ever edited by hand.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    // No foreign key: the entry must outlive a deleted coach or patient.
    .addColumn('actorId', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('entityId', 'text', (c) => c.notNull())
    .addColumn('patientId', 'text')
    // JSON: { field: { before, after } } of the changed fields; secrets are never stored in clear.
    .addColumn('changes', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_patient').on('audit_log').columns(['patientId', 'at']).execute();
  await db.schema.createIndex('audit_log_entity').on('audit_log').columns(['entity', 'entityId', 'at']).execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();

  // rate-limiter-flexible's PostgreSQL store (key, points, expire in ms since 1970). Created here so every
  // upstream process finds it at start; SQLite instances count in memory and leave it empty. Keys are
  // hashes, so no address or IP is stored.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
  await db.schema.dropTable('audit_log').execute();
}
