import { Router, type Request } from 'express';
import * as v from 'valibot';
import type { Upstream } from '../../context.ts';
import { sendAnswer } from '../../http/answer.ts';
import { currentCoach, isAdmin, requireAuth, requireHealthManagerOrAdmin } from '../../http/auth.ts';
import { badRequest } from '../../http/errors.ts';
import { jsonQueryValue } from '../../http/filter.ts';
import { issuesToDetails } from '../../http/validate.ts';
import { overlappingCount } from './day-counts.ts';
import { detailPatients, viewerOf } from './detail.ts';
import { dailyPatientsInAftercare, patientStatistics, phoneCoachings } from './repository.ts';
import { fillRowIds, pseudonymKey } from './row-ids.ts';
import { detailOrder, detailRow, periodOf } from './rules.ts';
import {
  DailyPatientsSchema,
  DetailStatisticsQuerySchema,
  PatientDetailStatisticsSchema,
  PatientStatisticsSchema,
  PhoneCoachingsSchema,
  StatisticsQuerySchema,
} from '../../../../contract/schemas/statistics.ts';

/** Reads the JSON-encoded query values; unknown names are a 400 like unknown filter fields. */
function readQuery<S extends v.GenericSchema>(req: Request, schema: S, names: string[]): v.InferOutput<S> {
  const query = req.query as Record<string, unknown>;
  const unknown = Object.keys(query).filter((name) => !names.includes(name));
  if (unknown.length) {
    throw badRequest(
      'Unknown query value',
      unknown.map((path) => ({ path, message: 'Unknown query value' })),
      'INVALID_QUERY',
    );
  }
  const raw: Record<string, unknown> = {};
  for (const name of names) raw[name] = jsonQueryValue(query, name);
  const parsed = v.safeParse(schema, raw);
  if (!parsed.success) throw badRequest('Invalid query', issuesToDetails(parsed.issues), 'INVALID_QUERY');
  return parsed.output;
}

/** The four statistics calls, for health managers and administrators only. Computed from stored data. */
export function statisticsRoutes(ctx: Upstream): Router {
  const router = Router();
  const auth = requireAuth(ctx);
  const guard = requireHealthManagerOrAdmin;
  const names = ['from', 'to', 'coachId'];
  const period = (req: Request) => periodOf(readQuery(req, StatisticsQuerySchema, names), ctx.clock.now());

  router.get('/statistics/patient-statistics', auth, guard, async (req, res) => {
    sendAnswer(res, PatientStatisticsSchema, await patientStatistics(ctx.db, period(req)));
  });
  router.get('/statistics/patient-detail-statistics', auth, guard, async (req, res) => {
    const q = readQuery(req, DetailStatisticsQuerySchema, [...names, 'limit', 'skip', 'order']);
    const p = periodOf(q, ctx.clock.now());
    const order = detailOrder(q.order);
    const caller = currentCoach(req);
    await fillRowIds(ctx.db, () => pseudonymKey(ctx.db));
    const total = await overlappingCount(ctx.db, p);
    const patients = await detailPatients(ctx.db, p, await viewerOf(ctx.db, caller, isAdmin(caller)), order, q, total);
    res.set('X-Total-Count', String(total));
    sendAnswer(
      res,
      PatientDetailStatisticsSchema,
      patients.map((patient) => detailRow(patient, p)),
    );
  });
  router.get('/statistics/daily-patients-in-aftercare', auth, guard, async (req, res) => {
    sendAnswer(res, DailyPatientsSchema, await dailyPatientsInAftercare(ctx.db, period(req)));
  });
  router.get('/statistics/phone-coachings', auth, guard, async (req, res) => {
    sendAnswer(res, PhoneCoachingsSchema, await phoneCoachings(ctx.db, period(req)));
  });
  return router;
}
