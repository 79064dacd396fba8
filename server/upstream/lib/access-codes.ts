import type { Upstream } from '../context.ts';
import type { PatientTokenTable } from '../db/types.ts';
import { isUniqueViolation } from '../db/index.ts';
import { CODE_VALID_DAYS, generateCode } from './codes.ts';
import { newId } from './secrets.ts';

/** Makes and stores a new access code (patient token): unique, valid 90 days, unused. */
export async function createAccessCode(ctx: Upstream, values: { coachId: string; patientId: string | null }): Promise<PatientTokenTable> {
  const now = ctx.clock.now();
  for (let attempt = 0; ; attempt++) {
    const row: PatientTokenTable = {
      id: newId(),
      code: generateCode(),
      coachId: values.coachId,
      patientId: values.patientId,
      expiresAt: new Date(now.getTime() + CODE_VALID_DAYS * 86400_000).toISOString(),
      usedAt: null,
      createdAt: now.toISOString(),
    };
    try {
      await ctx.db.insertInto('patient_tokens').values(row).execute();
      return row;
    } catch (error) {
      // 31^9 codes: a collision is rare; try again with a fresh one.
      if (!isUniqueViolation(error) || attempt > 5) throw error;
    }
  }
}
