import { listComments } from '../../api/comments.ts';
import { isGiven } from '../../components/Figure.tsx';
import { aftercareStatus, aftercareStatusWhere, listPatients } from '../../api/patients.ts';
import { listCoaches } from '../../api/coaches.ts';
import type { Coach } from '../../../contract/schemas/coaches.ts';
import type { Patient } from '../../../contract/schemas/patients.ts';
import type { AftercareStatus } from '../../../contract/schemas/statistics.ts';
import { getDailyPatientsInAftercare, getPatientDetailStatistics, getPhoneCoachings } from '../../api/statistics.ts';
import { germanDate, germanDateTime, toCsv, type CsvValue } from '../../lib/csv.ts';
import { t } from '../../lib/i18n.ts';
import { fetchAll, fetchAllSince, type Progress } from '../../data/fetch-all.ts';
import { coachName as personName } from '../../lib/names.ts';

export { EXPORT_KINDS, type ExportKind } from '../../domain/permissions.ts';
import type { ExportKind } from '../../domain/permissions.ts';

export interface ExportFilter {
  from: string;
  to: string;
  status: 'all' | AftercareStatus;
  /** '' = every coach. */
  coachId: string;
}

export interface ExportRun {
  signal: AbortSignal;
  /** step: locale key of what is being fetched. */
  onProgress: (step: string, progress: Progress) => void;
  /** Today, `YYYY-MM-DD` (the aftercare status depends on it). */
  today: string;
}

export interface ExportResult {
  text: string;
  rows: number;
  fileName: string;
}

/** Rows per request: big enough to be quick, small enough that the bar moves and no answer gets huge. */
export const PAGE_SIZE = 200;

/** Which filters each kind uses, so the form shows only those. */
export const USES_PERIOD: Record<ExportKind, boolean> = { patients: false, detailStatistics: true, comments: true, dailyFigures: true };
export const USES_STATUS: Record<ExportKind, boolean> = { patients: true, detailStatistics: false, comments: false, dailyFigures: false };
/** The statistics calls and the patient list can be narrowed to one primary coach. */
export const USES_COACH: Record<ExportKind, boolean> = { patients: true, detailStatistics: true, comments: false, dailyFigures: true };

const coachName = (coaches: Map<string, Coach>, id: string | null) => {
  const coach = id ? coaches.get(id) : undefined;
  return coach ? personName(coach) : '';
};

function patientWhere(filter: ExportFilter, today: string): Record<string, unknown> | undefined {
  const parts: Record<string, unknown>[] = [];
  if (filter.status !== 'all') parts.push(aftercareStatusWhere(filter.status, today));
  if (filter.coachId) parts.push({ primaryCoachId: filter.coachId });
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { and: parts };
}

/**
 * Every patient the filter names, in the order of their ids, each page asked from the last id read on
 * (fetchAllSince): a page of the name order far into the list walked past every patient before it, so an export of
 * 100,000 grew with the square of its length (6.2 against 2.9 s of reading on PostgreSQL at that size).
 */
async function allPatients(where: Record<string, unknown> | undefined, run: ExportRun, step: string): Promise<Patient[]> {
  return fetchAllSince(
    async ({ since, skip, limit }, signal) => {
      const from = since === undefined ? [] : [{ id: { gte: since } }];
      const all = [...(where ? [where] : []), ...from];
      return listPatients({ where: all.length > 1 ? { and: all } : all[0], order: ['id ASC'], limit, skip }, signal);
    },
    (patient) => patient.id,
    { pageSize: PAGE_SIZE, signal: run.signal, onProgress: (p) => run.onProgress(step, p) },
  );
}

/** German name order (DIN 5007-1, as the patient list: "Schäfer" with "Schafer"), then the id. */
const german = new Intl.Collator('de');
const byName = (a: Patient, b: Patient) =>
  german.compare(a.lastName, b.lastName) || german.compare(a.firstName, b.firstName) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const coachQuery = (filter: ExportFilter) => (filter.coachId ? { coachId: filter.coachId } : {});

const periodSuffix = (filter: ExportFilter) => `${filter.from}_${filter.to}`;

async function patientsCsv(filter: ExportFilter, run: ExportRun): Promise<ExportResult> {
  // The coaches are fetched as part of the run, so the names are there even if the form's list failed.
  const coachList = await fetchAll(async (range, signal) => listCoaches({ order: ['lastName ASC', 'id ASC'], ...range }, signal), {
    pageSize: PAGE_SIZE,
    signal: run.signal,
    onProgress: (p) => run.onProgress('export.step.coaches', p),
  });
  const coaches = new Map(coachList.map((c) => [c.id, c]));
  const patients = (await allPatients(patientWhere(filter, run.today), run, 'export.step.patients')).sort(byName);
  const header = [
    'patientCode',
    'lastName',
    'firstName',
    'birthDate',
    'gender',
    'email',
    'phone',
    'clinic',
    'aftercareStart',
    'aftercareEnd',
    'status',
    'primaryCoach',
    'lastDataAt',
  ].map((key) => t(`export.column.${key}`));
  const rows: CsvValue[][] = patients.map((p) => [
    p.patientCode,
    p.lastName,
    p.firstName,
    germanDate(p.birthDate),
    t(`export.gender.${p.gender}`),
    p.email ?? '',
    p.phone ?? '',
    p.clinic,
    germanDate(p.aftercareStart),
    germanDate(p.aftercareEnd),
    t(`export.status.${aftercareStatus(p, run.today)}`),
    coachName(coaches, p.primaryCoachId),
    germanDateTime(p.lastDataAt),
  ]);
  return { text: toCsv(header, rows), rows: rows.length, fileName: `${t('export.fileName.patients')}_${run.today}.csv` };
}

async function detailStatisticsCsv(filter: ExportFilter, run: ExportRun): Promise<ExportResult> {
  const rows = await fetchAll(
    async (range, signal) => getPatientDetailStatistics({ from: filter.from, to: filter.to, ...coachQuery(filter), order: 'lastName ASC', ...range }, signal),
    { pageSize: PAGE_SIZE, signal: run.signal, onProgress: (p) => run.onProgress('export.step.detailStatistics', p) },
  );
  const header = [
    'patientCode',
    'lastName',
    'firstName',
    'primaryCoach',
    'status',
    'aftercareStart',
    'aftercareEnd',
    'daysInAftercare',
    'phoneCoachings',
    'phoneCoachingMinutes',
    'dayEvaluations',
    'lastDataAt',
  ].map((key) => t(`export.column.${key}`));
  // A figure the API does not give (NaN, client/data/reading.ts) is an empty cell, not 0.
  const orEmpty = (value: number): CsvValue => (isGiven(value) ? value : '');
  const data: CsvValue[][] = rows.map((r) => [
    // Patients the exporting person may not open come under their pseudonym and without a name.
    r.patientCode ?? r.rowId,
    r.lastName ?? '',
    r.firstName ?? '',
    r.primaryCoachName,
    t(`export.status.${r.status}`),
    germanDate(r.aftercareStart),
    germanDate(r.aftercareEnd),
    orEmpty(r.daysInAftercare),
    orEmpty(r.phoneCoachings),
    orEmpty(r.phoneCoachingMinutes),
    orEmpty(r.dayEvaluations),
    germanDateTime(r.lastDataAt),
  ]);
  return { text: toCsv(header, data), rows: data.length, fileName: `${t('export.fileName.detailStatistics')}_${periodSuffix(filter)}.csv` };
}

/** Start and end of the period as instants, the end day included (local midnight to midnight). */
function periodInstants(filter: ExportFilter): { gte: string; lt: string } {
  const start = new Date(`${filter.from}T00:00:00`);
  const end = new Date(`${filter.to}T00:00:00`);
  end.setDate(end.getDate() + 1);
  return { gte: start.toISOString(), lt: end.toISOString() };
}

async function commentsCsv(filter: ExportFilter, run: ExportRun): Promise<ExportResult> {
  // Comments name their patient by id only; the export shows the pseudonym code, so the patients come first.
  const patients = await allPatients(undefined, run, 'export.step.patientCodes');
  const codes = new Map(patients.map((p) => [p.id, p.patientCode]));
  const { gte, lt } = periodInstants(filter);
  // From the last note's time on, page after page (data/fetch-all.ts): at 100,000 patients a page deep in a year's
  // notes no longer walks past all before it.
  const comments = await fetchAllSince(
    async ({ since, skip, limit }, signal) =>
      listComments({ where: { and: [{ createdAt: { gte: since ?? gte } }, { createdAt: { lt } }] }, order: ['createdAt ASC', 'id ASC'], limit, skip }, signal),
    (comment) => comment.createdAt,
    { pageSize: PAGE_SIZE, signal: run.signal, onProgress: (p) => run.onProgress('export.step.comments', p) },
  );
  const header = ['createdAt', 'patientCode', 'author', 'text', 'updatedAt'].map((key) => t(`export.column.${key}`));
  const rows: CsvValue[][] = comments.map((c) => [
    germanDateTime(c.createdAt),
    codes.get(c.patientId) ?? '',
    c.authorName,
    c.text,
    c.updatedAt !== c.createdAt ? germanDateTime(c.updatedAt) : '',
  ]);
  return { text: toCsv(header, rows), rows: rows.length, fileName: `${t('export.fileName.comments')}_${periodSuffix(filter)}.csv` };
}

async function dailyFiguresCsv(filter: ExportFilter, run: ExportRun): Promise<ExportResult> {
  const period = { from: filter.from, to: filter.to, ...coachQuery(filter) };
  run.onProgress('export.step.dailyFigures', { done: 0, total: 2 });
  const daily = await getDailyPatientsInAftercare(period, run.signal);
  run.onProgress('export.step.dailyFigures', { done: 1, total: 2 });
  const calls = await getPhoneCoachings(period, run.signal);
  run.onProgress('export.step.dailyFigures', { done: 2, total: 2 });
  const byDay = new Map(calls.data.map((d) => [d.date, d]));
  const header = ['date', 'patientsInAftercare', 'phoneCoachings', 'phoneCoachingMinutes'].map((key) => t(`export.column.${key}`));
  const rows: CsvValue[][] = daily.data.map((d) => [germanDate(d.date), d.count, byDay.get(d.date)?.count ?? 0, byDay.get(d.date)?.minutes ?? 0]);
  return { text: toCsv(header, rows), rows: rows.length, fileName: `${t('export.fileName.dailyFigures')}_${periodSuffix(filter)}.csv` };
}

export function buildExport(kind: ExportKind, filter: ExportFilter, run: ExportRun): Promise<ExportResult> {
  switch (kind) {
    case 'patients':
      return patientsCsv(filter, run);
    case 'detailStatistics':
      return detailStatisticsCsv(filter, run);
    case 'comments':
      return commentsCsv(filter, run);
    case 'dailyFigures':
      return dailyFiguresCsv(filter, run);
  }
}
