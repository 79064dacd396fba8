import type { Db } from '../../db/index.ts';
import { insertChunked } from '../../db/insert-chunked.ts';
import type { PatientTable } from '../../db/types.ts';
import type { ErrorDetail } from '../../http/errors.ts';
import type { ParsedFilter } from '../../http/filter.ts';
import { listPage } from '../../http/list-page.ts';
import type { AnyQuery } from '../../resource/definition.ts';
import { patientAccessCondition } from './access.ts';
import { audit, changesBetween, insertAudited } from '../audit/record.ts';
import { type Appointment, type EvaluationForm, emptyEvaluationForm, type Patient, type PrimaryCoach } from '../../../../contract/schemas/patients.ts';
import { generatePatientCode } from '../../lib/codes.ts';

/* The stored patients and what hangs off them: care team, lent devices, appointments, the evaluation form. */

/** Stored row -> the PatientSchema answer. */
export function toPatient(row: PatientTable): Patient {
  return {
    id: row.id,
    patientCode: row.patientCode,
    firstName: row.firstName,
    lastName: row.lastName,
    birthDate: row.birthDate,
    gender: row.gender as Patient['gender'],
    email: row.email,
    phone: row.phone,
    clinic: row.clinic,
    aftercareStart: row.aftercareStart,
    aftercareEnd: row.aftercareEnd,
    primaryCoachId: row.primaryCoachId,
    diagnosisIds: JSON.parse(row.diagnosisIds),
    costRateId: row.costRateId,
    appointments: JSON.parse(row.appointments),
    lastDataAt: row.lastDataAt,
    followUpAt: row.followUpAt ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** One page of the patients a coach looks after (primary or in the care team), as the coach would see them. */
export async function patientsOfCoach(db: Db, coachId: string, filter: ParsedFilter, defaultOrder: { field: string; direction: 'asc' | 'desc' }[]) {
  const scoped = db.selectFrom('patients').where((eb) => patientAccessCondition(eb, coachId, 'patients.id')) as AnyQuery;
  return listPage(db, scoped, 'patients', filter, defaultOrder, { caseloadOf: coachId });
}

export async function findPatientByCode(db: Db, patientCode: string): Promise<PatientTable | undefined> {
  return db.selectFrom('patients').selectAll().where('patientCode', '=', patientCode).executeTakeFirst();
}

export async function primaryCoachIdOf(db: Db, patientId: string): Promise<string | null> {
  const patient = await db.selectFrom('patients').select('primaryCoachId').where('id', '=', patientId).executeTakeFirstOrThrow();
  return (patient.primaryCoachId as string | null) ?? null;
}

/** A patient code no patient has yet. */
export async function uniquePatientCode(db: Db): Promise<string> {
  for (;;) {
    const code = generatePatientCode();
    if (!(await findPatientByCode(db, code))) return code;
  }
}

/** Which of the row's references (primary coach, cost rate, diagnoses) point nowhere, as 422 details. */
export async function unknownReferences(db: Db, row: Pick<PatientTable, 'primaryCoachId' | 'costRateId' | 'diagnosisIds'>): Promise<ErrorDetail[]> {
  const details: ErrorDetail[] = [];
  if (row.primaryCoachId && !(await db.selectFrom('coaches').select('id').where('id', '=', row.primaryCoachId).executeTakeFirst())) {
    details.push({ path: 'primaryCoachId', message: 'Unknown coach' });
  }
  if (row.costRateId && !(await db.selectFrom('cost_rates').select('id').where('id', '=', row.costRateId).executeTakeFirst())) {
    details.push({ path: 'costRateId', message: 'Unknown cost rate' });
  }
  const diagnosisIds = JSON.parse(row.diagnosisIds) as string[];
  if (diagnosisIds.length) {
    const found = await db.selectFrom('diagnoses').select('id').where('id', 'in', diagnosisIds).execute();
    const known = new Set(found.map((d) => d.id));
    diagnosisIds.forEach((id, i) => {
      if (!known.has(id)) details.push({ path: `diagnosisIds.${i}`, message: 'Unknown diagnosis' });
    });
  }
  return details;
}

/** Stores a new patient with its 'create' entry in the audit log. */
export async function insertPatient(db: Db, row: PatientTable, actorId: string): Promise<void> {
  await insertAudited(db, 'patients', row, { at: row.createdAt, actorId, entity: 'patient', patientId: row.id });
}

export async function countTrialPatients(db: Db, firstName: string): Promise<number> {
  const count = await db
    .selectFrom('patients')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('firstName', '=', firstName)
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

/** The contact card of the patient's primary coach (null without one). */
export async function primaryCoachCard(db: Db, patientId: string): Promise<PrimaryCoach> {
  const row = await db
    .selectFrom('patients')
    .innerJoin('coaches', 'coaches.id', 'patients.primaryCoachId' as 'patients.id')
    .select(['coaches.id', 'coaches.firstName', 'coaches.lastName', 'coaches.title', 'coaches.email', 'coaches.phone'])
    .where('patients.id', '=', patientId)
    .executeTakeFirst();
  return row ?? null;
}

/** The coaches linked to the patient through the care team, in German name order. */
export async function careTeam(db: Db, patientId: string) {
  return db
    .selectFrom('patient_coaches')
    .innerJoin('coaches', 'coaches.id', 'patient_coaches.coachId')
    .selectAll('coaches')
    .where('patient_coaches.patientId', '=', patientId)
    .orderBy('coaches.lastNameKey')
    .orderBy('coaches.firstNameKey')
    .orderBy('coaches.id')
    .execute();
}

export async function lentDevices(db: Db, patientId: string) {
  return db
    .selectFrom('patient_devices')
    .innerJoin('devices', 'devices.id', 'patient_devices.deviceId')
    .selectAll('devices')
    .where('patient_devices.patientId', '=', patientId)
    .orderBy('devices.name' as 'devices.id')
    .execute();
}

type Link = { entity: 'patient-coach'; otherId: string } | { entity: 'patient-device'; otherId: string };
const LINKS = { 'patient-coach': { table: 'patient_coaches', column: 'coachId' }, 'patient-device': { table: 'patient_devices', column: 'deviceId' } } as const;

/** Adds a care-team or device link (audited as done by actorId); linking twice changes nothing. */
export async function link(db: Db, patientId: string, { entity, otherId }: Link, actorId: string, at: string): Promise<void> {
  const { table, column } = LINKS[entity];
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .insertInto(table)
      .values({ patientId, [column]: otherId, createdAt: at } as never)
      .onConflict((oc) => oc.columns(['patientId', column] as never).doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return;
    const changes = { [column]: { before: null, after: otherId } };
    await audit(trx, { at, actorId, action: 'create', entity, entityId: `${patientId}/${otherId}`, patientId, changes });
  });
}

/** Removes a care-team or device link (audited); removing one that is not there changes nothing. */
export async function unlink(db: Db, patientId: string, { entity, otherId }: Link, actorId: string, at: string): Promise<void> {
  const { table, column } = LINKS[entity];
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom(table)
      .where('patientId', '=', patientId)
      .where(column as 'patientId', '=', otherId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return;
    const changes = { [column]: { before: otherId, after: null } };
    await audit(trx, { at, actorId, action: 'delete', entity, entityId: `${patientId}/${otherId}`, patientId, changes });
  });
}

/** The patient's appointment list and the version of the patient record it belongs to. */
export async function appointmentsOf(db: Db, patientId: string): Promise<{ appointments: Appointment[]; version: string }> {
  const row = await db.selectFrom('patients').select(['appointments', 'updatedAt']).where('id', '=', patientId).executeTakeFirstOrThrow();
  return { appointments: JSON.parse(row.appointments), version: row.updatedAt };
}

/** Replaces the appointment list if the patient is still at `version`; false when another write came first. */
export async function storeAppointments(
  db: Db,
  patientId: string,
  version: { before: string; after: string },
  lists: { before: Appointment[]; after: Appointment[] },
  actorId: string,
): Promise<boolean> {
  const before = JSON.stringify(lists.before);
  const appointments = JSON.stringify(lists.after);
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('patients')
      .set({ appointments, updatedAt: version.after })
      .where('id', '=', patientId)
      .where('updatedAt', '=', version.before)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    const changes = changesBetween('patient', { appointments: before }, { appointments });
    await audit(trx, { at: version.after, actorId, action: 'update', entity: 'patient', entityId: patientId, patientId, changes });
    return true;
  });
}

/** The stored evaluation form of a patient, or the empty one nobody has saved yet. */
export async function readEvaluationForm(db: Db, patientId: string): Promise<EvaluationForm> {
  const row = await db.selectFrom('evaluation_forms').selectAll().where('patientId', '=', patientId).executeTakeFirst();
  if (row) return { ...row, workAbility: row.workAbility as EvaluationForm['workAbility'], followUpRecommended: row.followUpRecommended === 1 };
  return emptyEvaluationForm(patientId);
}

/** The form's stored version (null: never saved). */
export async function evaluationFormVersion(db: Db, patientId: string): Promise<string | null> {
  const row = await db.selectFrom('evaluation_forms').select('updatedAt').where('patientId', '=', patientId).executeTakeFirst();
  return row?.updatedAt ?? null;
}

type FormRow = Omit<EvaluationForm, 'followUpRecommended' | 'updatedBy' | 'updatedAt'> & { followUpRecommended: 0 | 1; updatedBy: string; updatedAt: string };

/**
 * Saves the whole form if it is still at `version` (null: not saved yet), with its audit entry; false when another
 * save came first.
 */
export async function storeEvaluationForm(db: Db, row: FormRow, version: string | null): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('evaluation_forms').selectAll().where('patientId', '=', row.patientId).executeTakeFirst();
    if ((before?.updatedAt ?? null) !== version) return false;
    const { patientId, ...changes } = row;
    const result = before
      ? await trx.updateTable('evaluation_forms').set(changes).where('patientId', '=', patientId).where('updatedAt', '=', version).executeTakeFirst()
      : await trx
          .insertInto('evaluation_forms')
          .values(row)
          .onConflict((oc) => oc.column('patientId').doNothing())
          .executeTakeFirst();
    const stored = 'numUpdatedRows' in result ? result.numUpdatedRows : (result.numInsertedOrUpdatedRows ?? 0);
    if (Number(stored) === 0) return false;
    await audit(trx, {
      at: row.updatedAt,
      actorId: row.updatedBy,
      action: before ? 'update' : 'create',
      entity: 'evaluation-form',
      entityId: patientId,
      patientId,
      changes: changesBetween('evaluation-form', before ? { ...before } : undefined, row),
    });
    return true;
  });
}

/** Demo data: patients and care-team links made elsewhere, stored as they are. */
export async function insertPatients(db: Db, rows: PatientTable[]): Promise<void> {
  await insertChunked(db, 'patients', rows);
}
export async function insertCareTeamLinks(db: Db, rows: { patientId: string; coachId: string; createdAt: string }[]): Promise<void> {
  await insertChunked(db, 'patient_coaches', rows);
}
export async function insertLentDevices(db: Db, rows: { patientId: string; deviceId: string; createdAt: string }[]): Promise<void> {
  await insertChunked(db, 'patient_devices', rows);
}
export async function insertEvaluationForms(db: Db, rows: object[]): Promise<void> {
  await insertChunked(db, 'evaluation_forms', rows);
}
export async function setLastDataAt(db: Db, patientId: string, lastDataAt: string): Promise<void> {
  await db.updateTable('patients').set({ lastDataAt }).where('id', '=', patientId).execute();
}
