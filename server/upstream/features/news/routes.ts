import { Router, type Request } from 'express';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import { currentCoach, isAdmin, requireAuth } from '../../http/auth.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { param } from '../../http/params.ts';
import { isoNow } from '../../lib/clock.ts';
import { coachExists } from '../coaches/repository.ts';
import { isPublished, markRead, markUnread, publishedNews } from './repository.ts';
import { NewsListSchema } from '../../../../contract/schemas/news.ts';

/**
 * GET /news: every published item, newest first, with `read` for the calling coach.
 * POST /news/{id}/read|unread/{coachId}: read state per coach and item. A coach sets only their own
 * state; administrators may set anyone's (e.g. to reset a colleague's inbox).
 */
export function newsRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);

  router.get('/news', auth, async (req, res) => {
    const items = await publishedNews(ctx.db, currentCoach(req).id, isoNow(ctx.clock));
    res.set('X-Total-Count', String(items.length));
    sendAnswer(res, NewsListSchema, items);
  });

  async function target(req: Request) {
    const coach = currentCoach(req);
    const newsId = param(req, 'id');
    const coachId = param(req, 'coachId');
    if (coachId !== coach.id && !isAdmin(coach)) throw forbidden('You can only change your own read state', 'NOT_OWN_READ_STATE');
    if (!(await isPublished(ctx.db, newsId, isoNow(ctx.clock)))) throw notFound('Unknown news item', 'NEWS_NOT_FOUND');
    if (!(await coachExists(ctx.db, coachId))) throw notFound('Unknown coach', 'COACH_NOT_FOUND');
    return { newsId, coachId };
  }

  router.post('/news/:id/read/:coachId', auth, async (req, res) => {
    const { newsId, coachId } = await target(req);
    await markRead(ctx.db, newsId, coachId, isoNow(ctx.clock));
    res.status(204).end();
  });

  router.post('/news/:id/unread/:coachId', auth, async (req, res) => {
    const { newsId, coachId } = await target(req);
    await markUnread(ctx.db, newsId, coachId);
    res.status(204).end();
  });

  return router;
}
