import { Router } from 'express';
import type { CoachTable } from '../../db/types.ts';
import type { Upstream } from '../../context.ts';
import { ForgotPasswordBodySchema, LoginBodySchema, SetPasswordBodySchema, UpdatePasswordBodySchema } from '../../../../contract/schemas/auth.ts';
import { validate } from '../../http/validate.ts';
import { badRequest, forbidden, unauthorized } from '../../http/errors.ts';
import { currentCoach, requireAuth } from '../../http/auth.ts';
import { clientIp, limitPerIp } from '../../http/rate-limit.ts';
import { hashPassword, verifyPassword } from '../../lib/secrets.ts';
import { ALL_TOKEN_KINDS, claimToken, coachAsItIsNow, issueToken, revokeTokens, RESET_TOKEN_TTL_SECONDS } from './repository.ts';
import { assertPasswordAllowed } from './password-policy.ts';
import { afterAnswer } from '../../lib/after-answer.ts';
import { toMe } from '../coaches/view.ts';
import { updateCoachColumns } from '../coaches/repository.ts';
import { publicOrigin, sendMail } from '../../lib/outbox.ts';

/** /auth: login, logout, me, password change, the emailed reset link (docs/contract.md#reset-link). */
export function authRoutes(ctx: Upstream): Router {
  const router = Router();
  const limiter = ctx.rateLimiter;

  router.post('/auth/login', limitPerIp(limiter, 'login'), async (req, res) => {
    const body = validate(LoginBodySchema, req.body);
    const email = body.email.toLowerCase();
    // Counted before the password is checked (parallel guesses cannot slip through), per account and address;
    // a right password gives the point back. Unknown accounts count the same, so the answer reveals nothing.
    const attempt = await limiter.passwordAttempt(email, clientIp(req));
    const coach = await ctx.db.selectFrom('coaches').selectAll().where('email', '=', email).executeTakeFirst();
    const ok = await verifyPassword(body.password, coach?.passwordHash ?? null);
    if (!coach || !ok) throw unauthorized('Wrong email or password', 'LOGIN_FAILED');
    await attempt.succeeded();
    // Only after the right password, so "locked" reveals nothing to someone guessing.
    if (coach.isUserLocked === 1) throw forbidden('This account is locked', 'ACCOUNT_LOCKED');
    const issued = await issueLoginToken(ctx, coach);
    res.json({ id: issued.token, ttl: issued.ttl, created: issued.created, userId: coach.id, user: toMe(coach) });
  });

  router.post('/auth/logout', requireAuth(ctx), async (req, res) => {
    const coach = currentCoach(req);
    await ctx.db.updateTable('access_tokens').set({ usedAt: ctx.clock.now().toISOString() }).where('id', '=', coach.tokenHash).execute();
    res.status(204).end();
  });

  // Another browser left signed in, or a token that may have been copied: the caller keeps only this session.
  router.post('/auth/me/end-other-sessions', requireAuth(ctx), async (req, res) => {
    const coach = currentCoach(req);
    await revokeTokens(ctx, coach.id, ['access'], coach.tokenHash);
    res.status(204).end();
  });

  router.get('/auth/me', requireAuth(ctx), async (req, res) => {
    const row = await ctx.db.selectFrom('coaches').selectAll().where('id', '=', currentCoach(req).id).executeTakeFirstOrThrow();
    res.json(toMe(row));
  });

  router.patch('/auth/me/update-password', requireAuth(ctx), async (req, res) => {
    const body = validate(UpdatePasswordBodySchema, req.body);
    const coach = currentCoach(req);
    // A stolen session must not become unlimited guessing of the password: same counters as the login.
    const attempt = await limiter.passwordAttempt(coach.email.toLowerCase(), clientIp(req));
    const row = await ctx.db.selectFrom('coaches').select('passwordHash').where('id', '=', coach.id).executeTakeFirstOrThrow();
    if (!(await verifyPassword(body.oldPassword, row.passwordHash))) {
      throw badRequest('The old password is wrong', [{ path: 'oldPassword', message: 'Wrong password' }], 'WRONG_OLD_PASSWORD');
    }
    await attempt.succeeded();
    await assertPasswordAllowed(body.newPassword, coach, 'newPassword');
    const passwordHash = await hashPassword(body.newPassword);
    await ctx.db.transaction().execute((trx) => updateCoachColumns(trx, coach.id, coach.id, ctx.clock.now(), { passwordHash }));
    // Other sessions (another browser, a stolen token) and mailed links end with the old password.
    await revokeTokens(ctx, coach.id, ALL_TOKEN_KINDS, coach.tokenHash);
    res.status(204).end();
  });

  router.post('/auth/me/set-password', limitPerIp(limiter, 'set-password'), requireAuth(ctx, 'reset'), async (req, res) => {
    const coach = currentCoach(req);
    await limiter.consume('set-password', coach.id);
    const body = validate(SetPasswordBodySchema, req.body);
    await assertPasswordAllowed(body.password, coach, 'password');
    // Once the password is one that may be used, the link is: two requests with it at the same moment set one.
    if (!(await claimToken(ctx, coach.tokenHash))) throw unauthorized('Invalid or expired access token', 'INVALID_TOKEN');
    const passwordHash = await hashPassword(body.password);
    await ctx.db.transaction().execute((trx) => updateCoachColumns(trx, coach.id, coach.id, ctx.clock.now(), { passwordHash }));
    // The link works once; every session and mailed link that existed before the reset ends.
    await revokeTokens(ctx, coach.id, ALL_TOKEN_KINDS);
    res.status(204).end();
  });

  router.post('/auth/forgot-password', limitPerIp(limiter, 'forgot-password'), async (req, res) => {
    const body = validate(ForgotPasswordBodySchema, req.body);
    const email = body.email.toLowerCase();
    // Per address: nobody can flood one coach's mailbox. Counted whether or not the account exists.
    await limiter.consume('forgot-password', email);
    // Always 204, and before the account is even looked up: neither the answer nor its timing (the database
    // lookup, writing or sending the mail) says whether the account exists.
    const ip = clientIp(req);
    afterAnswer(ctx, res, 'password reset mail', async () => {
      const coach = await ctx.db.selectFrom('coaches').selectAll().where('email', '=', email).executeTakeFirst();
      if (coach && coach.isUserLocked === 0) await sendResetMail(ctx, coach, publicOrigin(ctx));
      else ctx.logger.info({ ip }, 'password reset requested for an unknown or locked account; no mail written');
    });
    res.status(204).end();
  });

  return router;
}

/**
 * The login token, issued only if the account is still as the password check found it (lib/tokens.ts
 * coachAsItIsNow): checking the password takes a while, and a lock or new password committed meanwhile has
 * already ended the tokens the account had; so has a confirmed new address (the login named the old one).
 */
async function issueLoginToken(ctx: Upstream, checked: CoachTable) {
  return ctx.db.transaction().execute(async (trx) => {
    const now = await coachAsItIsNow(trx, checked.id);
    if (!now || now.passwordHash !== checked.passwordHash || now.email !== checked.email) throw unauthorized('Wrong email or password', 'LOGIN_FAILED');
    if (now.isUserLocked === 1) throw forbidden('This account is locked', 'ACCOUNT_LOCKED');
    return issueToken({ ...ctx, db: trx }, checked.id, 'access', ctx.session.maxHours * 3600);
  });
}

/**
 * Mails a one-time reset link (30 minutes), bound to the address it goes to. Older reset links end: only the
 * newest mail in the box works, so a link left in an old mail or a forwarded one is of no use.
 */
export async function sendResetMail(ctx: Upstream, coach: { id: string; email: string; firstName: string; lastName: string }, origin: string) {
  // Revoking the older links and issuing this one in one transaction, on the account as it is now: locked or
  // readdressed since it was looked up, it gets no link (which an unlock would otherwise bring back to life).
  const issued = await ctx.db.transaction().execute(async (trx) => {
    const now = await coachAsItIsNow(trx, coach.id);
    if (!now || now.isUserLocked === 1 || now.email !== coach.email) return undefined;
    await revokeTokens({ ...ctx, db: trx }, coach.id, ['reset']);
    return issueToken({ ...ctx, db: trx }, coach.id, 'reset', RESET_TOKEN_TTL_SECONDS, coach.email);
  });
  if (!issued) return;
  const { token } = issued;
  const link = `${origin}/reset-password?access_token=${encodeURIComponent(token)}`;
  await sendMail(ctx, {
    to: coach.email,
    subject: 'Passwort zurücksetzen',
    text: [
      `Hallo ${coach.firstName} ${coach.lastName},`,
      '',
      'Sie haben angefordert, Ihr Passwort zurückzusetzen. Über diesen Link vergeben Sie ein neues Passwort:',
      '',
      link,
      '',
      'Der Link ist 30 Minuten gültig und funktioniert nur einmal.',
      'Wenn Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren; Ihr Passwort bleibt unverändert.',
    ].join('\n'),
  });
}
