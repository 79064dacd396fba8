import type { Kysely } from 'kysely';

// The defaults are product settings, not demo data: every instance starts with them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db
    .insertInto('settings')
    .values([
      { key: 'enable_creating_new_patients', value: 'true' },
      { key: 'instance_name', value: JSON.stringify('CL') },
    ])
    .execute();

  await db.schema
    .createTable('training_materials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('assetId', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updatedAt', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('training_materials').execute();
  await db.schema.dropTable('settings').execute();
}
