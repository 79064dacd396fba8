import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sync_records')
    .addColumn('patientId', 'text', (c) => c.notNull().references('patients.id').onDelete('cascade'))
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('date', 'text')
    .addColumn('type', 'text')
    .addColumn('done', 'integer')
    .addColumn('minutes', 'integer')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_records_pk', ['patientId', 'collection', 'id'])
    .execute();
  // Lists per patient by day, and the statistics' scans of one collection over a period.
  await db.schema.createIndex('sync_records_patient_date').on('sync_records').columns(['patientId', 'collection', 'date']).execute();
  await db.schema.createIndex('sync_records_collection_date').on('sync_records').columns(['collection', 'date']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sync_records').execute();
}
