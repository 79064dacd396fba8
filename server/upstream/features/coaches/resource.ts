import type { CoachTable } from '../../db/types.ts';
import { isAdmin, type SessionCoach } from '../../http/auth.ts';
import { conflict, forbidden } from '../../http/errors.ts';
import type { ResourceDefinition, WriteContext } from '../../resource/definition.ts';
import { sendAddressChangeNotice, sendConfirmationMail } from '../auth/mails.ts';
import { assertMayManage, assertMaySetSuperAdmin, assertSuperAdminRemains, assertSuperAdminRemainsAfter } from './rules.ts';
import { assertPasswordAllowed } from '../auth/password-policy.ts';
import { hashPassword } from '../../lib/secrets.ts';
import { ALL_TOKEN_KINDS, revokeTokens } from '../auth/repository.ts';
import { findCoachByEmail, toCoach } from './repository.ts';
import { CoachCreateSchema, CoachPatchSchema, CoachSchema, CoachUpdateSchema } from '../../../../contract/schemas/coaches.ts';

/** The flags only an administrator may set. */
const FLAGS = ['isAdmin', 'isHealthManager', 'isUserLocked'] as const;

/** Parsed input -> columns: booleans as 0/1, the password and fields left out (undefined) not among them. */
function columnsOf(input: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === 'password' || value === undefined) continue;
    row[key] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }
  return row;
}

/** What a coach who is not an administrator may not change about their own account. */
function assertPlainCoachChanges(coach: SessionCoach, row: Record<string, unknown>, existing: CoachTable | undefined): void {
  if (isAdmin(coach)) return;
  for (const flag of FLAGS) {
    if (flag in row && row[flag] !== (existing?.[flag] ?? 0)) throw forbidden('Only administrators may change roles or locks', 'ADMIN_REQUIRED');
  }
  if ('email' in row && row.email !== existing?.email) throw forbidden('Only administrators may change email addresses', 'ADMIN_REQUIRED');
}

/**
 * A different address is not taken over at once: it waits in pendingEmail until the link mailed to it is opened
 * (routes.ts), so a typo or someone else's address cannot take the account's mail (and its reset
 * links) away from its owner. The address the account has stays; naming it again keeps a pending change.
 */
async function holdNewAddress(write: WriteContext, row: Record<string, unknown>, existing: CoachTable): Promise<void> {
  const email = row.email;
  delete row.email;
  if (typeof email !== 'string' || email === existing.email) return;
  if (await findCoachByEmail(write.ctx.db, email)) throw conflict('email is already taken', 'ALREADY_EXISTS', [{ path: 'email', message: 'Already taken' }]);
  row.pendingEmail = email;
}

async function createRow(input: Record<string, unknown>, row: Record<string, unknown>, coach: SessionCoach): Promise<Record<string, unknown>> {
  if (typeof input.password === 'string') await assertPasswordAllowed(input.password, row as Partial<CoachTable>, 'password');
  return {
    ...row,
    passwordHash: typeof input.password === 'string' ? await hashPassword(input.password) : null,
    isSuperAdmin: coach.isSuperAdmin && row.isSuperAdmin === 1 ? 1 : 0,
    emailVerified: 0,
    pendingEmail: null,
    trialEndsAt: null,
  };
}

async function toRow(input: Record<string, unknown>, write: WriteContext): Promise<Record<string, unknown>> {
  const { coach } = write;
  const existing = write.existing as CoachTable | undefined;
  const row = columnsOf(input);
  if (existing) assertMayManage(coach, existing);
  assertPlainCoachChanges(coach, row, existing);
  assertMaySetSuperAdmin(coach, existing?.isSuperAdmin, row.isSuperAdmin);
  if (!existing) return createRow(input, row, coach);
  await assertSuperAdminRemains(write.ctx.db, existing, row as Partial<CoachTable>);
  if (existing.id === coach.id && (row.isUserLocked === 1 || row.isAdmin === 0)) {
    // An administrator who locks or demotes themselves could leave the instance without any admin.
    throw conflict('You cannot lock yourself or remove your own administrator role', 'SELF_LOCKOUT');
  }
  await holdNewAddress(write, row, existing);
  return row;
}

/** /coaches as a standard resource (list, read, create, update, delete), with the rules for who may change what. */
export const coachesResource: ResourceDefinition = {
  path: '/coaches',
  table: 'coaches',
  fields: {
    id: 'string',
    email: 'string',
    firstName: 'string',
    lastName: 'string',
    title: 'string',
    phone: 'string',
    isAdmin: 'boolean',
    isSuperAdmin: 'boolean',
    isHealthManager: 'boolean',
    isUserLocked: 'boolean',
    emailVerified: 'boolean',
    pendingEmail: 'string',
    language: 'string',
    trialEndsAt: 'date',
    createdAt: 'date',
    updatedAt: 'date',
  },
  createSchema: CoachCreateSchema,
  updateSchema: CoachUpdateSchema,
  patchSchema: CoachPatchSchema,
  outputSchema: CoachSchema,
  access: {
    // Every coach sees the team (to link colleagues to a patient); the hash never leaves (toCoach).
    scopeList: (_ctx, _coach, query) => query,
    canRead: () => true,
    // Admins manage coaches (administrators: only a super administrator, rules.ts); a coach may
    // edit their own profile (not their flags, checked in toRow).
    canWrite: async (ctx, coach, row, op) => {
      if (op === 'delete') {
        assertMayManage(coach, row as unknown as CoachTable);
        await assertSuperAdminRemains(ctx.db, row as unknown as CoachTable, undefined);
        if (row.id === coach.id) throw conflict('You cannot delete your own account', 'SELF_DELETE');
      }
      return isAdmin(coach) || (op === 'update' && row.id === coach.id);
    },
    canAttempt: (coach, op, id) => isAdmin(coach) || (op === 'update' && id === coach.id),
  },
  toRow,
  // Locking or deleting an account ends every session and mailed link of it, in the same transaction: unlocking
  // later revives none of them.
  async onWrite({ before, after }, trx, { ctx }) {
    if (before) await assertSuperAdminRemainsAfter(trx, before as unknown as CoachTable);
    const ended = before && (!after || (before.isUserLocked === 0 && after.isUserLocked === 1));
    if (ended) await revokeTokens({ ...ctx, db: trx }, before.id, ALL_TOKEN_KINDS);
  },
  async afterWrite({ before, after }, { ctx }) {
    const coach = after as unknown as CoachTable | undefined;
    if (!before || !coach?.pendingEmail || coach.pendingEmail === before.pendingEmail) return;
    await sendConfirmationMail(ctx, coach, coach.pendingEmail);
    await sendAddressChangeNotice(ctx, coach);
  },
  toOutput: (rows) => (rows as unknown as CoachTable[]).map(toCoach),
  audit: { entity: 'coach', patientIdOf: () => null },
  uniqueField: 'email',
  defaultOrder: { field: 'lastName', direction: 'asc' },
};
