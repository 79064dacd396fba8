import { Router } from 'express';
import type { Upstream } from '../../context.ts';
import { ForgotPasswordBodySchema, LoginBodySchema, SetPasswordBodySchema, UpdatePasswordBodySchema } from '../../../../contract/schemas/auth.ts';
import { validate } from '../../http/validate.ts';
import { badRequest, forbidden, unauthorized } from '../../http/errors.ts';
import { currentCoach, requireAuth, toMe } from '../../http/auth.ts';
import { clientIp, limitPerIp } from '../../http/rate-limit.ts';
import { hashPassword, verifyPassword } from '../../lib/secrets.ts';
import { afterAnswer } from '../../lib/after-answer.ts';
import { findCoach, findCoachByEmail, storePassword } from '../coaches/repository.ts';
import { ALL_TOKEN_KINDS, claimToken, endToken, issueLoginToken, revokeTokens } from './repository.ts';
import { assertPasswordAllowed } from './password-policy.ts';
import { sendResetMail } from './mails.ts';

/** Stores a new password; other sessions (another browser, a stolen token) and mailed links end with the old one. */
async function replacePassword(ctx: Upstream, coachId: string, password: string, keep?: string): Promise<void> {
  await storePassword(ctx, coachId, await hashPassword(password));
  await revokeTokens(ctx, coachId, ALL_TOKEN_KINDS, keep);
}

/** /auth: login, logout, the signed-in coach, ending the other sessions. */
export function authRoutes(ctx: Upstream): Router {
  const router = Router();
  const limiter = ctx.rateLimiter;

  router.post('/auth/login', limitPerIp(limiter, 'login'), async (req, res) => {
    const body = validate(LoginBodySchema, req.body);
    const email = body.email.toLowerCase();
    // Counted before the password is checked (parallel guesses cannot slip through), per account and address;
    // a right password gives the point back. Unknown accounts count the same, so the answer reveals nothing.
    const attempt = await limiter.passwordAttempt(email, clientIp(req));
    const coach = await findCoachByEmail(ctx.db, email);
    const ok = await verifyPassword(body.password, coach?.passwordHash ?? null);
    if (!coach || !ok) throw unauthorized('Wrong email or password', 'LOGIN_FAILED');
    await attempt.succeeded();
    // Only after the right password, so "locked" reveals nothing to someone guessing.
    if (coach.isUserLocked === 1) throw forbidden('This account is locked', 'ACCOUNT_LOCKED');
    // The account may have changed while the password was checked (repository.ts issueLoginToken).
    const issued = await issueLoginToken(ctx, coach);
    if (issued === 'changed') throw unauthorized('Wrong email or password', 'LOGIN_FAILED');
    if (issued === 'locked') throw forbidden('This account is locked', 'ACCOUNT_LOCKED');
    res.json({ id: issued.token, ttl: issued.ttl, created: issued.created, userId: coach.id, user: toMe(coach) });
  });

  router.post('/auth/logout', requireAuth(ctx), async (req, res) => {
    await endToken(ctx, currentCoach(req).tokenHash);
    res.status(204).end();
  });

  // Another browser left signed in, or a token that may have been copied: the caller keeps only this session.
  router.post('/auth/me/end-other-sessions', requireAuth(ctx), async (req, res) => {
    const coach = currentCoach(req);
    await revokeTokens(ctx, coach.id, ['access'], coach.tokenHash);
    res.status(204).end();
  });

  router.get('/auth/me', requireAuth(ctx), async (req, res) => {
    const row = await findCoach(ctx.db, currentCoach(req).id);
    if (!row) throw unauthorized();
    res.json(toMe(row));
  });

  return router;
}

/** The password: changing it, setting it from an emailed link, asking for that link (docs/contract.md#reset-link). */
export function passwordRoutes(ctx: Upstream): Router {
  const router = Router();
  const limiter = ctx.rateLimiter;

  router.patch('/auth/me/update-password', requireAuth(ctx), async (req, res) => {
    const body = validate(UpdatePasswordBodySchema, req.body);
    const coach = currentCoach(req);
    // A stolen session must not become unlimited guessing of the password: same counters as the login.
    const attempt = await limiter.passwordAttempt(coach.email.toLowerCase(), clientIp(req));
    const row = await findCoach(ctx.db, coach.id);
    if (!row || !(await verifyPassword(body.oldPassword, row.passwordHash))) {
      throw badRequest('The old password is wrong', [{ path: 'oldPassword', message: 'Wrong password' }], 'WRONG_OLD_PASSWORD');
    }
    await attempt.succeeded();
    await assertPasswordAllowed(body.newPassword, coach, 'newPassword');
    await replacePassword(ctx, coach.id, body.newPassword, coach.tokenHash);
    res.status(204).end();
  });

  router.post('/auth/me/set-password', limitPerIp(limiter, 'set-password'), requireAuth(ctx, 'reset'), async (req, res) => {
    const coach = currentCoach(req);
    await limiter.consume('set-password', coach.id);
    const body = validate(SetPasswordBodySchema, req.body);
    await assertPasswordAllowed(body.password, coach, 'password');
    // Once the password is one that may be used, the link is: two requests with it at the same moment set one.
    if (!(await claimToken(ctx, coach.tokenHash))) throw unauthorized('Invalid or expired access token', 'INVALID_TOKEN');
    // The link works once; every session and mailed link that existed before the reset ends.
    await replacePassword(ctx, coach.id, body.password);
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
      const coach = await findCoachByEmail(ctx.db, email);
      if (coach && coach.isUserLocked === 0) await sendResetMail(ctx, coach);
      else ctx.logger.info({ ip }, 'password reset requested for an unknown or locked account; no mail written');
    });
    res.status(204).end();
  });

  return router;
}
