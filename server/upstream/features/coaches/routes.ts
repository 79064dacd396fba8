import { Router, type Request } from 'express';
import type { Upstream } from '../../context.ts';
import { isUniqueViolation } from '../../db/index.ts';
import type { AccessTokenTable } from '../../db/types.ts';
import { currentCoach, requireAuth } from '../../http/auth.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { jsonQueryValue } from '../../http/filter.ts';
import { param } from '../../http/params.ts';
import { hashToken } from '../../lib/secrets.ts';
import { sendConfirmationMail, sendResetMail } from '../auth/mails.ts';
import { revokeTokens } from '../auth/repository.ts';
import { confirmAddress, findCoach, findVerificationToken } from './repository.ts';
import { managedCoach } from './rules.ts';

const invalidLink = () =>
  badRequest('This verification link is invalid or expired', [{ path: 'token', message: 'Invalid or expired' }], 'INVALID_VERIFICATION_TOKEN');

/** The unused, unexpired verification token of the link, or 400. */
async function verificationToken(ctx: Upstream, req: Request): Promise<AccessTokenTable> {
  const token = jsonQueryValue(req.query as Record<string, unknown>, 'token');
  if (typeof token !== 'string' || !token) throw badRequest('token is required', [{ path: 'token', message: 'Required' }], 'INVALID_QUERY');
  const row = await findVerificationToken(ctx.db, param(req, 'id'), hashToken(token), ctx.clock.now());
  if (!row) throw invalidLink();
  return row;
}

/**
 * Opening a link confirms the address it was sent to: the account's own (verified), or the one waiting in
 * pendingEmail, which becomes the account's address. Every token of the account ends then: sessions and links
 * belong to the old address. A link to any other address (an older pending one, the address before) is dead.
 */
async function confirmLink(ctx: Upstream, token: AccessTokenTable): Promise<void> {
  const coach = await findCoach(ctx.db, token.coachId);
  const changes =
    coach && token.sentTo && token.sentTo === coach.pendingEmail
      ? { email: coach.pendingEmail, pendingEmail: null, emailVerified: 1 as const }
      : token.sentTo === coach?.email
        ? { emailVerified: 1 as const }
        : undefined;
  if (!coach || !changes) throw invalidLink();
  try {
    await confirmAddress(ctx, token.id, coach.id, changes);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('email is already taken', 'ALREADY_EXISTS', [{ path: 'email', message: 'Already taken' }]);
    throw error;
  }
}

/**
 * A coach's account by mail and its sessions: verification and address change, reset mail, ending sessions. The
 * /coaches resource itself (list, create, change, delete) is resource.ts.
 */
export function coachRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);

  router.get('/coaches/isCoachLocked', auth, (req, res) => {
    res.json({ locked: currentCoach(req).isUserLocked });
  });

  // A pending new address gets its confirmation link again; otherwise the account's own address.
  router.post('/coaches/:id/send-verification-email', auth, async (req, res) => {
    const target = await managedCoach(ctx, req, currentCoach(req));
    if (!target.pendingEmail && target.emailVerified === 1) throw conflict('The email address is already verified', 'ALREADY_VERIFIED');
    await sendConfirmationMail(ctx, target, target.pendingEmail ?? target.email);
    res.status(204).end();
  });

  // Opened from the mail, without a session: the token in the link is the proof.
  router.get('/coaches/:id/verify-email', async (req, res) => {
    await confirmLink(ctx, await verificationToken(ctx, req));
    if (req.accepts(['json', 'html']) === 'html') res.redirect(302, '/login');
    else res.status(204).end();
  });

  router.post('/coaches/:id/reset-password', auth, async (req, res) => {
    const target = await managedCoach(ctx, req, currentCoach(req));
    if (target.isUserLocked === 1) throw conflict('The account is locked', 'ACCOUNT_LOCKED');
    await sendResetMail(ctx, target);
    res.status(204).end();
  });

  // Ends every login of the coach (a lost laptop, a shared computer); the caller's own current one stays.
  router.post('/coaches/:id/end-sessions', auth, async (req, res) => {
    const caller = currentCoach(req);
    const target = await managedCoach(ctx, req, caller);
    await revokeTokens(ctx, target.id, ['access'], target.id === caller.id ? caller.tokenHash : undefined);
    res.status(204).end();
  });

  return router;
}
