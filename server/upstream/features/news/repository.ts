import type { Db } from '../../db/index.ts';
import { insertChunked } from '../../db/insert-chunked.ts';
import type { NewsItem } from '../../../../contract/schemas/news.ts';

/** Every item published by `now`, newest first, with `read` for the coach. */
export async function publishedNews(db: Db, coachId: string, now: string): Promise<NewsItem[]> {
  const rows = await db
    .selectFrom('news')
    .leftJoin('news_reads', (join) => join.onRef('news_reads.newsId', '=', 'news.id').on('news_reads.coachId', '=', coachId))
    .select(['news.id', 'news.title', 'news.body', 'news.publishedAt', 'news_reads.readAt'])
    .where('news.publishedAt', '<=', now)
    .orderBy('news.publishedAt', 'desc')
    .orderBy('news.id')
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, body: r.body, publishedAt: r.publishedAt, read: r.readAt != null }));
}

export async function isPublished(db: Db, newsId: string, now: string): Promise<boolean> {
  return (await db.selectFrom('news').select('id').where('id', '=', newsId).where('publishedAt', '<=', now).executeTakeFirst()) !== undefined;
}

/** Marks the item read for the coach; marking it twice keeps the first time. */
export async function markRead(db: Db, newsId: string, coachId: string, at: string): Promise<void> {
  await db
    .insertInto('news_reads')
    .values({ newsId, coachId, readAt: at })
    .onConflict((oc) => oc.columns(['newsId', 'coachId']).doNothing())
    .execute();
}

export async function markUnread(db: Db, newsId: string, coachId: string): Promise<void> {
  await db.deleteFrom('news_reads').where('newsId', '=', newsId).where('coachId', '=', coachId).execute();
}

/** Demo data: items and read states made elsewhere, stored as they are. */
export async function insertNews(db: Db, news: object[], reads: { newsId: string; coachId: string; readAt: string }[]): Promise<void> {
  await insertChunked(db, 'news', news);
  await insertChunked(db, 'news_reads', reads);
}
