import { request } from '../data/http.ts';
import {
  DailyPatientsSchema,
  PatientDetailStatisticsSchema,
  PatientStatisticsSchema,
  PhoneCoachingsSchema,
  type DetailStatisticsQuery,
  type StatisticsQuery,
} from '../../contract/schemas/statistics.ts';

/* Health managers and administrators only. Query values are sent JSON-encoded like every query. */

export const getPatientStatistics = (query: StatisticsQuery = {}, signal?: AbortSignal) =>
  request('GET', '/statistics/patient-statistics', { query, schema: PatientStatisticsSchema, signal });
/** Paged with limit/skip; `total` carries the number of rows for the export's progress bar. */
export const getPatientDetailStatistics = (query: DetailStatisticsQuery = {}, signal?: AbortSignal) =>
  request('GET', '/statistics/patient-detail-statistics', { query, schema: PatientDetailStatisticsSchema, signal });
export const getDailyPatientsInAftercare = (query: StatisticsQuery = {}, signal?: AbortSignal) =>
  request('GET', '/statistics/daily-patients-in-aftercare', { query, schema: DailyPatientsSchema, signal });
export const getPhoneCoachings = (query: StatisticsQuery = {}, signal?: AbortSignal) =>
  request('GET', '/statistics/phone-coachings', { query, schema: PhoneCoachingsSchema, signal });
