import type { Kysely } from 'kysely';

// Columns follow the client schemas in contract/schemas/*.ts. Lists (diagnosisIds, appointments,
// survey questions) are JSON text; they are never filtered on.
export async function up(db: Kysely<any>): Promise<void> {
  await referenceData(db);
  await patientTables(db);
}

const timestamps = <T extends { addColumn: (...args: any[]) => T }>(t: T) =>
  t.addColumn('createdAt', 'text', (c: any) => c.notNull()).addColumn('updatedAt', 'text', (c: any) => c.notNull());

async function referenceData(db: Kysely<any>): Promise<void> {
  await timestamps(
    db.schema
      .createTable('cost_rates')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('amountCents', 'integer', (c) => c.notNull())
      .addColumn('unit', 'text', (c) => c.notNull()),
  ).execute();

  await timestamps(
    db.schema
      .createTable('devices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('serialNumber', 'text', (c) => c.notNull().unique()),
  ).execute();

  await db.schema
    .createTable('diagnoses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('label', 'text', (c) => c.notNull())
    .execute();

  await timestamps(
    db.schema
      .createTable('replication_endpoints')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('protocol', 'text', (c) => c.notNull())
      .addColumn('host', 'text')
      .addColumn('port', 'integer')
      .addColumn('path', 'text', (c) => c.notNull().defaultTo('')),
  ).execute();

  await timestamps(
    db.schema
      .createTable('surveys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('questions', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1)),
  ).execute();
}

/** The patients and what hangs on them. */
async function patientTables(db: Kysely<any>): Promise<void> {
  await timestamps(
    db.schema
      .createTable('patients')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('patientCode', 'text', (c) => c.notNull().unique())
      .addColumn('firstName', 'text', (c) => c.notNull())
      .addColumn('lastName', 'text', (c) => c.notNull())
      .addColumn('birthDate', 'text', (c) => c.notNull())
      .addColumn('gender', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('phone', 'text')
      .addColumn('clinic', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('aftercareStart', 'text', (c) => c.notNull())
      .addColumn('aftercareEnd', 'text', (c) => c.notNull())
      .addColumn('primaryCoachId', 'text', (c) => c.references('coaches.id').onDelete('set null'))
      .addColumn('diagnosisIds', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('costRateId', 'text', (c) => c.references('cost_rates.id').onDelete('set null'))
      .addColumn('appointments', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('lastDataAt', 'text'),
  ).execute();
  await db.schema.createIndex('patients_primary_coach').on('patients').column('primaryCoachId').execute();
  await db.schema.createIndex('patients_last_name').on('patients').columns(['lastName', 'firstName']).execute();
  await db.schema.createIndex('patients_aftercare').on('patients').columns(['aftercareStart', 'aftercareEnd']).execute();

  await db.schema
    .createTable('patient_coaches')
    .addColumn('patientId', 'text', (c) => c.notNull().references('patients.id').onDelete('cascade'))
    .addColumn('coachId', 'text', (c) => c.notNull().references('coaches.id').onDelete('cascade'))
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('patient_coaches_pk', ['patientId', 'coachId'])
    .execute();
  await db.schema.createIndex('patient_coaches_coach').on('patient_coaches').column('coachId').execute();

  await timestamps(
    db.schema
      .createTable('comments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('patientId', 'text', (c) => c.notNull().references('patients.id').onDelete('cascade'))
      .addColumn('authorId', 'text', (c) => c.references('coaches.id').onDelete('set null'))
      .addColumn('text', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('comments_patient').on('comments').column('patientId').execute();

  await db.schema
    .createTable('external_comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('patientId', 'text', (c) => c.notNull().references('patients.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('external_comments_patient').on('external_comments').column('patientId').execute();

  await db.schema
    .createTable('patient_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('coachId', 'text', (c) => c.notNull().references('coaches.id').onDelete('cascade'))
    .addColumn('patientId', 'text', (c) => c.references('patients.id').onDelete('cascade'))
    .addColumn('expiresAt', 'text', (c) => c.notNull())
    .addColumn('usedAt', 'text')
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('patient_tokens_patient').on('patient_tokens').column('patientId').execute();
  await db.schema.createIndex('patient_tokens_coach').on('patient_tokens').column('coachId').execute();

  // One row per patient whose app has synchronised; kept current by the sync-db routes.
  await db.schema
    .createTable('synced_patients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('patientId', 'text', (c) => c.notNull().unique().references('patients.id').onDelete('cascade'))
    .addColumn('patientCode', 'text', (c) => c.notNull())
    .addColumn('lastSyncAt', 'text', (c) => c.notNull())
    .addColumn('recordCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lastDayEvaluationDate', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'synced_patients',
    'patient_tokens',
    'external_comments',
    'comments',
    'patient_coaches',
    'patients',
    'surveys',
    'replication_endpoints',
    'diagnoses',
    'devices',
    'cost_rates',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
