import type { CoachTable } from '../../db/types.ts';
import type { Me } from '../../../../contract/schemas/auth.ts';
import type { Coach } from '../../../../contract/schemas/coaches.ts';

/** <Me> of docs/contract.md#shapes. */
export function toMe(row: CoachTable): Me {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    isUserLocked: row.isUserLocked === 1,
    isAdmin: row.isAdmin === 1,
    isSuperAdmin: row.isSuperAdmin === 1,
    isHealthManager: row.isHealthManager === 1,
    emailVerified: row.emailVerified === 1,
    language: row.language,
  };
}

/** A coach as the admin screens see it: never the password hash. */
export function toCoach(row: CoachTable): Coach {
  return {
    ...toMe(row),
    title: row.title,
    phone: row.phone,
    language: row.language as Coach['language'],
    trialEndsAt: row.trialEndsAt,
    pendingEmail: row.pendingEmail ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
