import type { Upstream } from '../../context.ts';
import type { PatientTokenTable } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/index.ts';
import { CODE_VALID_DAYS, generateCode, latestExpiry } from '../../lib/codes.ts';
import { newId } from '../../lib/secrets.ts';
import { insertAudited } from '../audit/record.ts';

/**
 * Makes and stores a new access code (patient token): unique, unused, valid 90 days or until `expiresAt`
 * when that is sooner (a trial ends earlier; nothing makes a code live longer). Audited as made by `actorId`.
 */
export async function createAccessCode(
  ctx: Upstream,
  values: { coachId: string; patientId: string | null; actorId: string; expiresAt?: string; label?: string | null },
): Promise<PatientTokenTable> {
  const now = ctx.clock.now().toISOString();
  const latest = latestExpiry(now);
  const expiresAt = values.expiresAt && values.expiresAt < latest ? values.expiresAt : latest;
  for (let attempt = 0; ; attempt++) {
    const row: PatientTokenTable = {
      id: newId(),
      code: generateCode(),
      coachId: values.coachId,
      patientId: values.patientId,
      expiresAt,
      usedAt: null,
      createdAt: now,
      label: values.label ?? null,
    };
    try {
      await insertAudited(ctx.db, 'patient_tokens', row, { at: now, actorId: values.actorId, entity: 'patient-token', patientId: row.patientId });
      return row;
    } catch (error) {
      // 31^9 codes: a collision is rare; try again with a fresh one.
      if (!isUniqueViolation(error) || attempt > 5) throw error;
    }
  }
}

export { CODE_VALID_DAYS };
