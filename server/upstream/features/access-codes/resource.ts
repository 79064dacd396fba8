import { isAdmin } from '../../http/auth.ts';
import { validationFailed } from '../../http/errors.ts';
import { CODE_VALID_DAYS, generateCode, latestExpiry } from '../../lib/codes.ts';
import type { PatientTokenTable } from '../../db/types.ts';
import { assertReference } from '../../resource/checks.ts';
import type { AccessRule, ResourceDefinition, WriteContext } from '../../resource/definition.ts';
import { canAccessPatient, patientAccessCondition } from '../patients/access.ts';
import {
  PatientTokenCreateSchema,
  PatientTokenPatchSchema,
  PatientTokenSchema,
  PatientTokenUpdateSchema,
} from '../../../../contract/schemas/patient-tokens.ts';

/** Access codes: visible to the coach they were made for and to every coach of their patient. */
const access: AccessRule = {
  scopeList(_ctx, coach, query) {
    if (isAdmin(coach)) return query;
    return query.where((eb) => eb.or([eb('patient_tokens.coachId', '=', coach.id), patientAccessCondition(eb, coach.id, 'patient_tokens.patientId')]));
  },
  async canRead(ctx, coach, row) {
    if (isAdmin(coach) || row.coachId === coach.id) return true;
    return row.patientId ? canAccessPatient(ctx.db, coach, String(row.patientId)) : false;
  },
  async canWrite(ctx, coach, row) {
    if (isAdmin(coach)) return true;
    // A coach makes codes for themselves only, and only for their own patients.
    if (row.coachId !== coach.id) return false;
    return row.patientId ? canAccessPatient(ctx.db, coach, String(row.patientId)) : true;
  },
};

/** The code and its lifetime are the server's: a new code is drawn here, and a code may be shortened or revoked, never stretched. */
async function toRow(input: Record<string, unknown>, { ctx, coach, existing, now }: WriteContext): Promise<Record<string, unknown>> {
  const row: Record<string, unknown> = { ...input };
  if (!existing) {
    row.coachId ??= coach.id;
    row.code = generateCode();
    row.expiresAt = new Date(Date.parse(now) + CODE_VALID_DAYS * 86400_000).toISOString();
    row.usedAt = null;
  } else if (typeof row.expiresAt === 'string' && row.expiresAt > latestExpiry(String(existing.createdAt))) {
    throw validationFailed([
      { path: 'expiresAt', message: `At most ${CODE_VALID_DAYS} days after the code was created (${latestExpiry(String(existing.createdAt))})` },
    ]);
  }
  if (row.coachId !== undefined) await assertReference(ctx, 'coaches', String(row.coachId), 'coachId', 'Unknown coach');
  if (row.patientId) await assertReference(ctx, 'patients', String(row.patientId), 'patientId', 'Unknown patient');
  return row;
}

export const patientTokensResource: ResourceDefinition = {
  path: '/patientTokens',
  table: 'patient_tokens',
  fields: { id: 'string', code: 'string', coachId: 'string', patientId: 'string', expiresAt: 'date', usedAt: 'date', createdAt: 'date', label: 'string' },
  createSchema: PatientTokenCreateSchema,
  updateSchema: PatientTokenUpdateSchema,
  patchSchema: PatientTokenPatchSchema,
  outputSchema: PatientTokenSchema,
  access,
  toRow,
  toOutput: (rows) => rows as unknown as PatientTokenTable[],
  audit: { entity: 'patient-token', patientIdOf: (row) => (row.patientId as string | null) ?? null },
  uniqueField: 'code',
  defaultOrder: { field: 'createdAt', direction: 'desc' },
};
