import type { Db } from '../../db/index.ts';
import { isUniqueViolation } from '../../db/index.ts';
import type { PatientTokenTable } from '../../db/types.ts';
import { generateCode, latestExpiry } from '../../lib/codes.ts';
import { insertChunked } from '../../db/insert-chunked.ts';
import { newId } from '../../lib/secrets.ts';
import { audit, changesBetween, insertAudited } from '../audit/record.ts';
import type { PatientToken } from '../../../../contract/schemas/patient-tokens.ts';
import type { Puk } from '../../../../contract/schemas/puks.ts';

/* The stored access codes (patient_tokens) and recovery keys (puks) of patients. */

/** 31^9 codes: a unique clash is a rare collision, fixed by drawing again (at most this many times). */
const MAX_DRAWS = 6;

async function withFreshCode<T>(insert: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await insert();
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= MAX_DRAWS) throw error;
    }
  }
}

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
 * Makes and stores a new access code (patient token): unique, unused, valid 90 days or until `expiresAt`
 * when that is sooner (a trial ends earlier; nothing makes a code live longer). Audited as made by `actorId`.
 */
export async function createAccessCode(
  db: Db,
  now: Date,
  values: { coachId: string; patientId: string | null; actorId: string; expiresAt?: string; label?: string | null },
): Promise<PatientTokenTable> {
  const at = now.toISOString();
  const latest = latestExpiry(at);
  const expiresAt = values.expiresAt && values.expiresAt < latest ? values.expiresAt : latest;
  return withFreshCode(async () => {
    const row: PatientTokenTable = {
      id: newId(),
      code: generateCode(),
      coachId: values.coachId,
      patientId: values.patientId,
      expiresAt,
      usedAt: null,
      createdAt: at,
      label: values.label ?? null,
    };
    await insertAudited(db, 'patient_tokens', row, { at, actorId: values.actorId, entity: 'patient-token', patientId: row.patientId });
    return row;
  });
}

/** The patient's newest code that is neither used nor expired at `now`. */
export async function newestUnusedCode(db: Db, patientId: string, now: Date): Promise<PatientTokenTable | undefined> {
  return db
    .selectFrom('patient_tokens')
    .selectAll()
    .where('patientId', '=', patientId)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now.toISOString())
    .orderBy('createdAt', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function listPuks(db: Db, patientId: string): Promise<Puk[]> {
  return db.selectFrom('puks').selectAll().where('patientId', '=', patientId).orderBy('createdAt', 'desc').orderBy('id').execute();
}

/** A new recovery key for a patient, same alphabet and check character as access codes, audited without the key itself. */
export async function createPuk(db: Db, values: { patientId: string; now: Date; actorId: string }): Promise<Puk> {
  return db.transaction().execute((trx) =>
    withFreshCode(async () => {
      const puk: Puk = { id: newId(), patientId: values.patientId, code: generateCode(), createdAt: values.now.toISOString(), usedAt: null };
      await trx.insertInto('puks').values(puk).execute();
      await audit(trx, {
        at: puk.createdAt,
        actorId: values.actorId,
        action: 'create',
        entity: 'puk',
        entityId: puk.id,
        patientId: values.patientId,
        changes: changesBetween('puk', undefined, { ...puk }),
      });
      return puk;
    }),
  );
}

/** Demo data: codes and keys made elsewhere, stored as they are. */
export async function insertAccessCodes(db: Db, rows: object[]): Promise<void> {
  await insertChunked(db, 'patient_tokens', rows);
}
export async function insertPuks(db: Db, rows: Puk[]): Promise<void> {
  await insertChunked(db, 'puks', rows);
}
