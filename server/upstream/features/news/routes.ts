import { Router, type Request } from 'express';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import { currentCoach, isAdmin, requireAuth } from '../../http/auth.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { NewsListSchema, type NewsItem } from '../../../../contract/schemas/news.ts';

/**
 * GET /news: every published item, newest first, with `read` for the calling coach.
 * POST /news/{id}/read|unread/{coachId}: read state per coach and item. A coach sets only their own
 * state; administrators may set anyone's (e.g. to reset a colleague's inbox).
 */
export function newsRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);

  router.get('/news', auth, async (req, res) => {
    const coach = currentCoach(req);
    const rows = await ctx.db
      .selectFrom('news')
      .leftJoin('news_reads', (join) => join.onRef('news_reads.newsId', '=', 'news.id').on('news_reads.coachId', '=', coach.id))
      .select(['news.id', 'news.title', 'news.body', 'news.publishedAt', 'news_reads.readAt'])
      .where('news.publishedAt', '<=', isoNow(ctx.clock))
      .orderBy('news.publishedAt', 'desc')
      .orderBy('news.id')
      .execute();
    const items: NewsItem[] = rows.map((r) => ({ id: r.id, title: r.title, body: r.body, publishedAt: r.publishedAt, read: r.readAt != null }));
    res.set('X-Total-Count', String(items.length));
    sendAnswer(res, NewsListSchema, items);
  });

  async function target(req: Request) {
    const coach = currentCoach(req);
    const id = String(req.params.id);
    const coachId = String(req.params.coachId);
    if (coachId !== coach.id && !isAdmin(coach)) throw forbidden('You can only change your own read state', 'NOT_OWN_READ_STATE');
    const item = await ctx.db.selectFrom('news').select('id').where('id', '=', id).where('publishedAt', '<=', isoNow(ctx.clock)).executeTakeFirst();
    if (!item) throw notFound('Unknown news item', 'NEWS_NOT_FOUND');
    const exists = await ctx.db.selectFrom('coaches').select('id').where('id', '=', coachId).executeTakeFirst();
    if (!exists) throw notFound('Unknown coach', 'COACH_NOT_FOUND');
    return { newsId: id, coachId };
  }

  router.post('/news/:id/read/:coachId', auth, async (req, res) => {
    const { newsId, coachId } = await target(req);
    await ctx.db
      .insertInto('news_reads')
      .values({ newsId, coachId, readAt: isoNow(ctx.clock) })
      .onConflict((oc) => oc.columns(['newsId', 'coachId']).doNothing())
      .execute();
    res.status(204).end();
  });

  router.post('/news/:id/unread/:coachId', auth, async (req, res) => {
    const { newsId, coachId } = await target(req);
    await ctx.db.deleteFrom('news_reads').where('newsId', '=', newsId).where('coachId', '=', coachId).execute();
    res.status(204).end();
  });

  return router;
}
