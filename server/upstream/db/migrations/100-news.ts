import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('news')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('publishedAt', 'text', (c) => c.notNull())
    .addColumn('createdAt', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('news_published').on('news').column('publishedAt').execute();

  await db.schema
    .createTable('news_reads')
    .addColumn('newsId', 'text', (c) => c.notNull().references('news.id').onDelete('cascade'))
    .addColumn('coachId', 'text', (c) => c.notNull().references('coaches.id').onDelete('cascade'))
    .addColumn('readAt', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('news_reads_pk', ['newsId', 'coachId'])
    .execute();
  await db.schema.createIndex('news_reads_coach').on('news_reads').column('coachId').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('news_reads').execute();
  await db.schema.dropTable('news').execute();
}
