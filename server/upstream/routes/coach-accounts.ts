import { Router, type Request } from 'express';
import type { Upstream } from '../context.ts';
import type { CoachTable } from '../db/types.ts';
import { currentCoach, isAdmin, requireAuth, type SessionCoach } from '../http/auth.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { jsonQueryValue } from '../http/filter.ts';
import { param } from '../http/params.ts';
import { updateCoachColumns } from '../lib/coach-writes.ts';
import { publicOrigin, sendMail } from '../lib/outbox.ts';
import { hashToken } from '../lib/secrets.ts';
import { issueToken, VERIFY_TOKEN_TTL_SECONDS } from '../lib/tokens.ts';
import { sendResetMail } from './auth.ts';

/** The coach named in the path: 404 when unknown, 403 unless it is the caller or the caller is admin. */
export async function targetCoach(ctx: Upstream, req: Request, self: SessionCoach): Promise<CoachTable> {
  const row = await ctx.db.selectFrom('coaches').selectAll().where('id', '=', param(req, 'id')).executeTakeFirst();
  if (!row) throw notFound('Unknown coach', 'COACH_NOT_FOUND');
  if (row.id !== self.id && !isAdmin(self)) throw forbidden('Only administrators may act for other coaches', 'ADMIN_REQUIRED');
  return row;
}

/** A coach's account by mail: the verification mail and its link, and the password reset an administrator sends. */
export function coachAccountRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const { db } = ctx;

  router.post('/coaches/:id/send-verification-email', auth, async (req, res) => {
    const target = await targetCoach(ctx, req, currentCoach(req));
    if (target.emailVerified === 1) throw conflict('The email address is already verified', 'ALREADY_VERIFIED');
    const { token } = await issueToken(ctx, target.id, 'verify', VERIFY_TOKEN_TTL_SECONDS);
    const link = `${publicOrigin(ctx)}/v2/coaches/${encodeURIComponent(target.id)}/verify-email?token=${encodeURIComponent(JSON.stringify(token))}`;
    await sendMail(ctx, {
      to: target.email,
      subject: 'E-Mail-Adresse bestätigen',
      text: [
        `Hallo ${target.firstName} ${target.lastName},`,
        '',
        'bitte bestätigen Sie Ihre E-Mail-Adresse über diesen Link:',
        '',
        link,
        '',
        'Der Link ist 7 Tage gültig.',
      ].join('\n'),
    });
    res.status(204).end();
  });

  // Opened from the mail, without a session: the token in the link is the proof.
  router.get('/coaches/:id/verify-email', async (req, res) => {
    const token = jsonQueryValue(req.query as Record<string, unknown>, 'token');
    if (typeof token !== 'string' || !token) throw badRequest('token is required', [{ path: 'token', message: 'Required' }], 'INVALID_QUERY');
    const row = await db
      .selectFrom('access_tokens')
      .selectAll()
      .where('id', '=', hashToken(token))
      .where('kind', '=', 'verify')
      .where('coachId', '=', param(req, 'id'))
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', ctx.clock.now().toISOString())
      .executeTakeFirst();
    if (!row)
      throw badRequest('This verification link is invalid or expired', [{ path: 'token', message: 'Invalid or expired' }], 'INVALID_VERIFICATION_TOKEN');
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('access_tokens').set({ usedAt: now.toISOString() }).where('id', '=', row.id).execute();
      await updateCoachColumns(trx, row.coachId, row.coachId, now, { emailVerified: 1 });
    });
    if (req.accepts(['json', 'html']) === 'html') res.redirect(302, '/login');
    else res.status(204).end();
  });

  router.post('/coaches/:id/reset-password', auth, async (req, res) => {
    const target = await targetCoach(ctx, req, currentCoach(req));
    if (target.isUserLocked === 1) throw conflict('The account is locked', 'ACCOUNT_LOCKED');
    await sendResetMail(ctx, target, publicOrigin(ctx));
    res.status(204).end();
  });

  return router;
}
