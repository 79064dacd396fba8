import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('puks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('patientId', 'text', (c) => c.notNull().references('patients.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addColumn('usedAt', 'text')
    .execute();
  await db.schema.createIndex('puks_patient').on('puks').column('patientId').execute();

  await db.schema
    .createTable('patient_devices')
    .addColumn('patientId', 'text', (c) => c.notNull().references('patients.id').onDelete('cascade'))
    .addColumn('deviceId', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('patient_devices_pk', ['patientId', 'deviceId'])
    .execute();
  await db.schema.createIndex('patient_devices_device').on('patient_devices').column('deviceId').execute();

  await db.schema
    .createTable('evaluation_forms')
    .addColumn('patientId', 'text', (c) => c.primaryKey().references('patients.id').onDelete('cascade'))
    .addColumn('goalAttainment', 'integer')
    .addColumn('workAbility', 'text')
    .addColumn('returnToWorkDate', 'text')
    .addColumn('followUpRecommended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updatedBy', 'text', (c) => c.references('coaches.id').onDelete('set null'))
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('evaluation_forms').execute();
  await db.schema.dropTable('patient_devices').execute();
  await db.schema.dropTable('puks').execute();
}
