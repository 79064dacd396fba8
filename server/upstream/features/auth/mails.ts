import type { Upstream } from '../../context.ts';
import type { CoachTable } from '../../db/types.ts';
import { publicOrigin, sendMail } from '../../lib/outbox.ts';
import { coachAsItIsNow, issueToken, RESET_TOKEN_TTL_SECONDS, revokeTokens, VERIFY_TOKEN_TTL_SECONDS } from './repository.ts';

type Person = Pick<CoachTable, 'id' | 'email' | 'firstName' | 'lastName'>;

/**
 * Mails a confirmation link to `address`: the account's own address (verifying it) or the new one waiting in
 * pendingEmail (the change takes effect only when the link is opened). The link is bound to that address.
 */
export async function sendConfirmationMail(ctx: Upstream, coach: Person, address: string): Promise<void> {
  const { token } = await issueToken(ctx, coach.id, 'verify', VERIFY_TOKEN_TTL_SECONDS, address);
  const link = `${publicOrigin(ctx)}/v2/coaches/${encodeURIComponent(coach.id)}/verify-email?token=${encodeURIComponent(JSON.stringify(token))}`;
  const change = address !== coach.email;
  await sendMail(ctx, {
    to: address,
    subject: change ? 'Neue E-Mail-Adresse bestätigen' : 'E-Mail-Adresse bestätigen',
    text: [
      `Hallo ${coach.firstName} ${coach.lastName},`,
      '',
      change
        ? 'für Ihr Konto im Coach-Portal wurde diese E-Mail-Adresse als neue Adresse eingetragen. Sie gilt erst, wenn Sie sie über diesen Link bestätigen:'
        : 'bitte bestätigen Sie Ihre E-Mail-Adresse über diesen Link:',
      '',
      link,
      '',
      'Der Link ist 7 Tage gültig.',
      ...(change ? ['Nach der Bestätigung melden Sie sich mit der neuen Adresse an; alle bisherigen Anmeldungen enden.'] : []),
    ].join('\n'),
  });
}

/** Tells the old address that a new one was entered: the owner learns of a change they did not ask for. */
export async function sendAddressChangeNotice(ctx: Upstream, coach: Person): Promise<void> {
  await sendMail(ctx, {
    to: coach.email,
    subject: 'Ihre E-Mail-Adresse soll geändert werden',
    text: [
      `Hallo ${coach.firstName} ${coach.lastName},`,
      '',
      'für Ihr Konto im Coach-Portal wurde eine neue E-Mail-Adresse eingetragen. An die neue Adresse ging ein Link zur Bestätigung;',
      'bis sie bestätigt ist, bleibt diese Adresse gültig.',
      '',
      'Wenn Sie diese Änderung nicht erwartet haben, wenden Sie sich bitte an Ihre Administration.',
    ].join('\n'),
  });
}

/**
 * Mails a one-time reset link (30 minutes), bound to the address it goes to. Older reset links end: only the
 * newest mail in the box works, so a link left in an old mail or a forwarded one is of no use.
 */
export async function sendResetMail(ctx: Upstream, coach: Person): Promise<void> {
  // Revoking the older links and issuing this one in one transaction, on the account as it is now: locked or
  // readdressed since it was looked up, it gets no link (which an unlock would otherwise bring back to life).
  const issued = await ctx.db.transaction().execute(async (trx) => {
    const now = await coachAsItIsNow(trx, coach.id);
    if (!now || now.isUserLocked === 1 || now.email !== coach.email) return undefined;
    await revokeTokens({ ...ctx, db: trx }, coach.id, ['reset']);
    return issueToken({ ...ctx, db: trx }, coach.id, 'reset', RESET_TOKEN_TTL_SECONDS, coach.email);
  });
  if (!issued) return;
  const link = `${publicOrigin(ctx)}/reset-password?access_token=${encodeURIComponent(issued.token)}`;
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
