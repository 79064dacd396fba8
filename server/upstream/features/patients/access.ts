import type { Request } from 'express';
import { type Expression, type ExpressionBuilder, PostgresAdapter, type SqlBool, sql } from 'kysely';
import type { Upstream } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { currentCoach, isAdmin, type SessionCoach } from '../../http/auth.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { AccessRule, AnyQuery } from '../../resource/definition.ts';

/*
 * Who may open a patient, and everything recorded about one: an administrator, the patient's primary coach, or a
 * coach linked to it through the care team (patient_coaches). Every feature that holds patient data asks here.
 */

/**
 * Narrows a list to rows whose `column` is a patient the coach may access (all rows for admins). The patient list on
 * PostgreSQL takes the coach's patient ids as an array, which it reads by primary key: given them as `in`, it judged
 * a scan of a covering index over every patient a filter selects cheaper and hash-joined the caseload to it ("Aktiv"
 * by end of aftercare at 100,000 patients: 44,301 index entries for 255 rows, 9.1 against 2.6 ms).
 */
export function scopeToPatients(ctx: Upstream, coach: SessionCoach, query: AnyQuery, column: string): AnyQuery {
  if (isAdmin(coach)) return query;
  if (column === 'patients.id' && ctx.db.getExecutor().adapter instanceof PostgresAdapter)
    return query.where(column, '=', sql<string>`any(array(${accessiblePatientIds(ctx.db, coach.id)}))`);
  return query.where((eb) => patientAccessCondition(eb, coach.id, column));
}

/**
 * Rows that belong to one patient (field `patientField`): admins see all, a coach only rows of patients
 * they are primary coach of or linked to. Reads and writes follow the same rule.
 */
export function patientScoped(table: string, patientField: string): AccessRule {
  return {
    scopeList: (ctx, coach, query) => scopeToPatients(ctx, coach, query, `${table}.${patientField}`),
    canRead: (ctx, coach, row) => canAccessPatient(ctx.db, coach, String(row[patientField])),
    canWrite: (ctx, coach, row) => canAccessPatient(ctx.db, coach, String(row[patientField])),
  };
}

/** For routes under /patients/{id}/: the patient id of the path once the caller may open it (404 unknown, 403 not linked). */
export function patientInPath(ctx: Upstream): (req: Request) => Promise<string> {
  return async (req) => {
    const patientId = String(req.params.id);
    await assertPatientAccess(ctx.db, currentCoach(req), patientId);
    return patientId;
  };
}

/** Ids of the patients a (non-admin) coach may see, as a subquery: primary coach or linked through patient_coaches. */
export function accessiblePatientIds(db: Db, coachId: string) {
  return db
    .selectFrom('patients')
    .select('patients.id')
    .where('patients.primaryCoachId', '=', coachId)
    .union(db.selectFrom('patient_coaches').select('patient_coaches.patientId as id').where('patient_coaches.coachId', '=', coachId));
}

/**
 * The same rule as a row condition on `patientIdColumn` (e.g. 'comments.patientId'): the column is IN the coach's
 * patient ids. Written as a semi-join the database drives from the coach (patients_primary_coach and
 * patient_coaches_coach_patient give a few hundred ids whatever the size of the instance), never as a check
 * evaluated for every row of the table: a coach's page then costs the same at 10,000 and at 100,000 patients.
 */
// biome-ignore lint/suspicious/noExplicitAny:the condition is joined into queries over several tables
export function patientAccessCondition(eb: ExpressionBuilder<any, any>, coachId: string, patientIdColumn: string): Expression<SqlBool> {
  const ids = eb
    .selectFrom('patients as ap')
    .select('ap.id')
    .where('ap.primaryCoachId', '=', coachId)
    .union(eb.selectFrom('patient_coaches as pc').select('pc.patientId as id').where('pc.coachId', '=', coachId));
  return eb(patientIdColumn as never, 'in', ids);
}

/** The access rule for everything about one patient: admin, primary coach, or linked through patient coaches. */
export async function canAccessPatient(db: Db, coach: Pick<SessionCoach, 'id' | 'isAdmin' | 'isSuperAdmin'>, patientId: string): Promise<boolean> {
  if (isAdmin(coach)) return true;
  const row = await db
    .selectFrom('patients')
    .select('id')
    .where('id', '=', patientId)
    .where((eb) => patientAccessCondition(eb, coach.id, 'patients.id'))
    .executeTakeFirst();
  return row !== undefined;
}

/** 404 when the patient does not exist, 403 when the coach may not access it. */
export async function assertPatientAccess(db: Db, coach: SessionCoach, patientId: string): Promise<void> {
  const exists = await db.selectFrom('patients').select('id').where('id', '=', patientId).executeTakeFirst();
  if (!exists) throw notFound('Unknown patient', 'PATIENT_NOT_FOUND');
  if (!(await canAccessPatient(db, coach, patientId))) throw forbidden('This patient is not linked to you', 'PATIENT_NOT_LINKED');
}

/**
 * 404 for an unknown patient, 403 unless the coach is its primary coach or an administrator: who is in the
 * care team and who is responsible is decided there, not by any colleague who can open the patient.
 */
export async function assertPrimaryCoachOrAdmin(db: Db, coach: SessionCoach, patientId: string): Promise<void> {
  const patient = await db.selectFrom('patients').select(['id', 'primaryCoachId']).where('id', '=', patientId).executeTakeFirst();
  if (!patient) throw notFound('Unknown patient', 'PATIENT_NOT_FOUND');
  if (isAdmin(coach) || (patient.primaryCoachId !== null && patient.primaryCoachId === coach.id)) return;
  if (await canAccessPatient(db, coach, patientId)) throw forbidden('Only the primary coach or an administrator may do this', 'PRIMARY_COACH_REQUIRED');
  throw forbidden('This patient is not linked to you', 'PATIENT_NOT_LINKED');
}
