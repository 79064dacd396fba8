import type { Db } from '../../db/index.ts';
import { isUniqueViolation } from '../../db/index.ts';
import type { PatientTokenTable } from '../../db/types.ts';
import type { PatientToken } from '../../../../contract/schemas/patient-tokens.ts';
import type { Puk } from '../../../../contract/schemas/puks.ts';
import { generateCode } from '../../lib/codes.ts';
import { newId } from '../../lib/secrets.ts';

export function toPatientToken(row: PatientTokenTable): PatientToken {
  return {
    id: row.id,
    code: row.code as string,
    coachId: row.coachId as string,
    patientId: (row.patientId as string | null) ?? null,
    expiresAt: row.expiresAt as string,
    usedAt: (row.usedAt as string | null) ?? null,
    createdAt: row.createdAt as string,
    label: (row.label as string | null) ?? null,
  };
}

/**
 * A new recovery key for a patient, same alphabet and check character as access codes. 31^9 codes:
 * a unique clash is a rare collision, fixed by drawing again.
 */
export async function createPuk(db: Db, values: { patientId: string; now: Date; random?: (n: number) => number }): Promise<Puk> {
  for (let attempt = 0; ; attempt++) {
    const puk: Puk = { id: newId(), patientId: values.patientId, code: generateCode(values.random), createdAt: values.now.toISOString(), usedAt: null };
    try {
      await db.insertInto('puks').values(puk).execute();
      return puk;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt > 5) throw error;
    }
  }
}
