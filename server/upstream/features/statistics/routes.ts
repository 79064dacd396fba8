import { Router, type Request } from 'express';
import * as v from 'valibot';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import type { Db } from '../../db/index.ts';
import { accessiblePatientIds, currentCoach, isAdmin, requireAuth, requireHealthManagerOrAdmin, type SessionCoach } from '../../http/auth.ts';
import { createHmac, randomBytes } from 'node:crypto';
import { readSetting } from '../settings/routes.ts';
import { badRequest } from '../../http/errors.ts';
import { jsonQueryValue } from '../../http/filter.ts';
import { issuesToDetails } from '../../http/validate.ts';
import { addDays, dayOf, daysInclusive, maxDay, minDay } from '../../lib/days.ts';
import { compareNames } from '../../lib/sort-key.ts';
import {
  dailyPatientsInAftercare,
  patientStatistics,
  patientsQuery,
  type Period,
  phoneCoachingQuery,
  phoneCoachings,
  statusOn,
} from './repository.ts';

import {
  DailyPatientsSchema,
  DetailStatisticsQuerySchema,
  PatientDetailStatisticsRowSchema,
  PatientDetailStatisticsSchema,
  PatientStatisticsSchema,
  PhoneCoachingsSchema,
  StatisticsQuerySchema,
  type PatientDetailStatisticsRow,
} from '../../../../contract/schemas/statistics.ts';

const MAX_PERIOD_DAYS = 731;

/** Reads the JSON-encoded query values; unknown names are a 400 like unknown filter fields. */
function readQuery<S extends v.GenericSchema>(req: Request, schema: S, names: string[]): v.InferOutput<S> {
  const query = req.query as Record<string, unknown>;
  const unknown = Object.keys(query).filter((name) => !names.includes(name));
  if (unknown.length)
    throw badRequest(
      'Unknown query value',
      unknown.map((path) => ({ path, message: 'Unknown query value' })),
      'INVALID_QUERY',
    );
  const raw: Record<string, unknown> = {};
  for (const name of names) raw[name] = jsonQueryValue(query, name);
  const parsed = v.safeParse(schema, raw);
  if (!parsed.success) throw badRequest('Invalid query', issuesToDetails(parsed.issues), 'INVALID_QUERY');
  return parsed.output;
}

function period(ctx: Upstream, q: { from?: string; to?: string; coachId?: string }): Period {
  const to = q.to ?? dayOf(ctx.clock.now());
  const from = q.from ?? addDays(to, -89);
  if (daysInclusive(from, to) > MAX_PERIOD_DAYS)
    throw badRequest(`The period may be at most ${MAX_PERIOD_DAYS} days`, [{ path: 'from', message: 'Period too long' }], 'INVALID_QUERY');
  return { from, to, coachId: q.coachId };
}

const ROW_FIELDS = Object.keys(PatientDetailStatisticsRowSchema.entries);

const PSEUDONYM_SETTING = 'statistics_pseudonym_key';
/**
 * The instance's secret for statistics pseudonyms (random, made on first use, never answered by any call):
 * a pseudonym stays the same across periods and pages, and cannot be turned back into a patient id.
 */
async function pseudonymKey(db: Db): Promise<string> {
  const stored = await readSetting<string | null>(db, PSEUDONYM_SETTING, null);
  if (typeof stored === 'string' && stored) return stored;
  await db
    .insertInto('settings')
    .values({ key: PSEUDONYM_SETTING, value: JSON.stringify(randomBytes(32).toString('hex')) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return readSetting<string>(db, PSEUDONYM_SETTING, '');
}

/**
 * One row per patient whose aftercare overlaps the period, sorted and paged; total = all rows. Rows of patients
 * the caller has no access to carry a pseudonym (rowId) instead of id, code and name.
 */
export async function patientDetailStatistics(
  db: Db,
  p: Period,
  page: { order?: string; limit?: number; skip?: number },
  caller: SessionCoach,
): Promise<{ rows: PatientDetailStatisticsRow[]; total: number }> {
  const match = /^\s*([A-Za-z]+)(?:\s+(ASC|DESC))?\s*$/i.exec(page.order ?? 'lastName ASC');
  if (!match || !ROW_FIELDS.includes(match[1]))
    throw badRequest('Invalid order', [{ path: 'order', message: `Unknown field or direction: ${page.order}` }], 'INVALID_QUERY');
  const field = match[1] as keyof PatientDetailStatisticsRow;
  const sign = match[2]?.toUpperCase() === 'DESC' ? -1 : 1;

  const patients = await patientsQuery(db, p.coachId)
    .leftJoin('coaches', 'coaches.id', 'patients.primaryCoachId' as 'patients.id')
    .select([
      'patients.id',
      'patients.patientCode',
      'patients.firstName',
      'patients.lastName',
      'patients.primaryCoachId',
      'patients.aftercareStart',
      'patients.aftercareEnd',
      'patients.lastDataAt',
      'coaches.firstName as coachFirst',
      'coaches.lastName as coachLast',
    ])
    .where('patients.aftercareStart', '<=', p.to)
    .where('patients.aftercareEnd', '>=', p.from)
    .execute();
  const calls = await phoneCoachingQuery(db, p)
    .select((eb) => ['patientId', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('minutes').as('minutes')])
    .groupBy('patientId')
    .execute();
  const callsBy = new Map(calls.map((c) => [c.patientId, c]));
  const evaluations = await db
    .selectFrom('sync_records')
    .select((eb) => ['patientId', eb.fn.countAll<number>().as('count')])
    .where('collection', '=', 'day-evaluation')
    .where('date', '>=', p.from)
    .where('date', '<=', p.to)
    .groupBy('patientId')
    .execute();
  const evaluationsBy = new Map(evaluations.map((e) => [e.patientId, Number(e.count)]));
  // Names, codes and ids open a patient: only rows of patients the caller may see anyway carry them. The
  // others are counted under a pseudonym that no other call accepts.
  const visible = isAdmin(caller) ? null : new Set((await accessiblePatientIds(db, caller.id).execute()).map((r) => r.id));
  const key = await pseudonymKey(db);

  const rows: PatientDetailStatisticsRow[] = patients.map((r) => {
    const start = r.aftercareStart as string;
    const end = r.aftercareEnd as string;
    const call = callsBy.get(r.id);
    const shown = visible === null || visible.has(r.id);
    return {
      rowId: `pseudo-${createHmac('sha256', key).update(r.id).digest('hex').slice(0, 16)}`,
      patientId: shown ? r.id : null,
      patientCode: shown ? (r.patientCode as string) : null,
      firstName: shown ? (r.firstName as string) : null,
      lastName: shown ? (r.lastName as string) : null,
      primaryCoachId: (r.primaryCoachId as string | null) ?? null,
      primaryCoachName: r.coachFirst ? `${r.coachFirst} ${r.coachLast}` : '',
      aftercareStart: start,
      aftercareEnd: end,
      status: statusOn(p.to, start, end),
      daysInAftercare: daysInclusive(maxDay(start, p.from), minDay(end, p.to)),
      phoneCoachings: Number(call?.count ?? 0),
      phoneCoachingMinutes: Number(call?.minutes ?? 0),
      dayEvaluations: evaluationsBy.get(r.id) ?? 0,
      lastDataAt: (r.lastDataAt as string | null) ?? null,
    };
  });
  // Text in German phone-book order, as the lists sort names (lib/sort-key.ts); a name sorted by last name is then
  // sorted by first name ("Bauer, Matthias" before "Bauer, Nicole"), and the pseudonym decides the rest.
  const compare = (key: keyof PatientDetailStatisticsRow) => (a: PatientDetailStatisticsRow, b: PatientDetailStatisticsRow) => {
    const x = a[key];
    const y = b[key];
    if (x === null || y === null) return x === y ? 0 : x === null ? -1 : 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return compareNames(String(x), String(y));
  };
  const then: (keyof PatientDetailStatisticsRow)[] = field === 'lastName' ? ['firstName'] : field === 'firstName' ? ['lastName'] : [];
  rows.sort((a, b) => {
    for (const key of [field, ...then]) {
      const c = compare(key)(a, b);
      if (c) return sign * c;
    }
    return a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0;
  });
  const skip = page.skip ?? 0;
  return { rows: rows.slice(skip, page.limit === undefined ? undefined : skip + page.limit), total: rows.length };
}

/** The four statistics calls, for health managers and administrators only. Computed from stored data. */
export function statisticsRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const guard = requireHealthManagerOrAdmin;
  const names = ['from', 'to', 'coachId'];

  router.get('/statistics/patient-statistics', auth, guard, async (req, res) => {
    sendAnswer(res, PatientStatisticsSchema, await patientStatistics(ctx.db, period(ctx, readQuery(req, StatisticsQuerySchema, names))));
  });
  router.get('/statistics/patient-detail-statistics', auth, guard, async (req, res) => {
    const q = readQuery(req, DetailStatisticsQuerySchema, [...names, 'limit', 'skip', 'order']);
    const { rows, total } = await patientDetailStatistics(ctx.db, period(ctx, q), q, currentCoach(req));
    res.set('X-Total-Count', String(total));
    sendAnswer(res, PatientDetailStatisticsSchema, rows);
  });
  router.get('/statistics/daily-patients-in-aftercare', auth, guard, async (req, res) => {
    sendAnswer(res, DailyPatientsSchema, await dailyPatientsInAftercare(ctx.db, period(ctx, readQuery(req, StatisticsQuerySchema, names))));
  });
  router.get('/statistics/phone-coachings', auth, guard, async (req, res) => {
    sendAnswer(res, PhoneCoachingsSchema, await phoneCoachings(ctx.db, period(ctx, readQuery(req, StatisticsQuerySchema, names))));
  });
  return router;
}
