import type { CoachTable } from '../db/types.ts';
import { isAdmin } from '../http/auth.ts';
import { conflict, forbidden } from '../http/errors.ts';
import type { ResourceDefinition } from '../http/resource.ts';
import { toCoach } from '../lib/coach-view.ts';
import { hashPassword } from '../lib/secrets.ts';
import { CoachCreateSchema, CoachPatchSchema, CoachSchema, CoachUpdateSchema } from '../../../client/api/schemas/coaches.ts';

/** The flags only an administrator may set. */
const FLAGS = ['isAdmin', 'isHealthManager', 'isUserLocked'] as const;

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
    // Admins manage coaches; a coach may edit their own profile (not their flags, checked in toRow).
    canWrite: (_ctx, coach, row, op) => isAdmin(coach) || (op === 'update' && row.id === coach.id),
    canAttempt: (coach, op, id) => isAdmin(coach) || (op === 'update' && id === coach.id),
  },
  async toRow(input, { coach, existing }) {
    const row: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      if (key === 'password') continue;
      row[key] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    }
    if (!isAdmin(coach)) {
      for (const flag of FLAGS) {
        if (flag in row && row[flag] !== (existing?.[flag] ?? 0)) throw forbidden('Only administrators may change roles or locks', 'ADMIN_REQUIRED');
      }
      if ('email' in row && row.email !== existing?.email) throw forbidden('Only administrators may change email addresses', 'ADMIN_REQUIRED');
    }
    if (existing && existing.id === coach.id && (row.isUserLocked === 1 || row.isAdmin === 0)) {
      // An administrator who locks or demotes themselves could leave the instance without any admin.
      throw conflict('You cannot lock yourself or remove your own administrator role', 'SELF_LOCKOUT');
    }
    if (!existing) {
      row.passwordHash = typeof input.password === 'string' ? await hashPassword(input.password) : null;
      row.isSuperAdmin = 0;
      row.emailVerified = 0;
      row.trialEndsAt = null;
    } else if ('email' in row && row.email !== existing.email) {
      row.emailVerified = 0;
    }
    return row;
  },
  toOutput: (rows) => (rows as unknown as CoachTable[]).map(toCoach),
  audit: { entity: 'coach', patientIdOf: () => null },
  uniqueField: 'email',
  defaultOrder: { field: 'lastName', direction: 'asc' },
};
