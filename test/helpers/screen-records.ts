// Builders for the tests of the admin, settings, information, news, controlling and export screens.
import type { NewsItem } from '../../contract/schemas/news.ts';
import { ApiError } from '../../client/data/http.ts';

/** The coach the screen tests sign in as: pass it to buildMe (client-fetch.ts) as `buildMe({ ...ANNA_BERG, ...flags })`. */
export const ANNA_BERG = { id: 'coach-1', email: 'anna.berg@example.org', firstName: 'Anna', lastName: 'Berg' } as const;

export function buildNews(overrides: Partial<NewsItem> = {}): NewsItem {
  return {
    id: 'news-1',
    title: 'Neue Funktion: Export',
    body: 'Ab sofort können Sie Daten exportieren.\n\nFragen? Melden Sie sich beim Support.',
    publishedAt: '2026-11-20T09:00:00.000Z',
    read: false,
    ...overrides,
  };
}

/** An answer as the typed API functions return it. */
export function ok<T>(data: T, total: number | null = null) {
  return Promise.resolve({ data, total });
}

/** A failed call as client/data/http.ts throws it. */
export function apiFailure(status: number, code = `HTTP_${status}`): ApiError {
  return new ApiError(status, code, 'failed');
}

import type { Coach } from '../../contract/schemas/coaches.ts';

export function buildCoach(overrides: Partial<Coach> = {}): Coach {
  return {
    id: 'coach-1',
    email: 'anna.berg@example.org',
    firstName: 'Anna',
    lastName: 'Berg',
    title: 'Dipl.-Psych.',
    phone: '030 1234567',
    isAdmin: false,
    isSuperAdmin: false,
    isHealthManager: false,
    isUserLocked: false,
    emailVerified: true,
    pendingEmail: null,
    language: 'de',
    trialEndsAt: null,
    createdAt: '2026-01-10T08:00:00.000Z',
    updatedAt: '2026-01-10T08:00:00.000Z',
    ...overrides,
  };
}

import type { TrainingMaterial } from '../../contract/schemas/system.ts';
import type { AppSettings } from '../../contract/schemas/app-settings.ts';

export function buildMaterial(overrides: Partial<TrainingMaterial> = {}): TrainingMaterial {
  return {
    id: 'tm-1',
    title: 'Handbuch für Coaches',
    description: 'Alle Funktionen Schritt für Schritt.',
    category: 'manual',
    assetId: 'asset-1',
    fileName: 'Handbuch-Coaches.pdf',
    contentType: 'application/pdf',
    size: 1_468_006,
    updatedAt: '2026-10-01T10:00:00.000Z',
    ...overrides,
  };
}

export function buildAppSettings(overrides: Partial<AppSettings> = {}): AppSettings {
  return {
    appName: 'Nachsorge-App',
    supportEmail: 'support@example.org',
    supportPhone: '+49 30 1234-0',
    privacyUrl: 'https://example.org/datenschutz',
    appDownloadUrl: 'https://example.org/app',
    logoAssetId: null,
    assets: [],
    ...overrides,
  };
}

import type { PatientDetailStatisticsRow, PatientStatistics } from '../../contract/schemas/statistics.ts';

export function buildPatientStatistics(overrides: Partial<PatientStatistics> = {}): PatientStatistics {
  return {
    from: '2026-08-25',
    to: '2026-11-22',
    total: 42,
    planned: 5,
    active: 30,
    completed: 7,
    startedInPeriod: 12,
    endedInPeriod: 4,
    activeWithoutDataFor7Days: 3,
    ...overrides,
  };
}

export function buildDetailRow(overrides: Partial<PatientDetailStatisticsRow> = {}): PatientDetailStatisticsRow {
  return {
    rowId: `pseudo-${(overrides.patientId ?? 'p-1').replace(/[^a-z0-9]/gi, '')}0000000000`,
    patientId: 'p-1',
    patientCode: 'NK-4821',
    firstName: 'Jonas',
    lastName: 'Keller',
    primaryCoachId: 'coach-1',
    primaryCoachName: 'Anna Berg',
    aftercareStart: '2026-09-01',
    aftercareEnd: '2027-02-28',
    status: 'active',
    daysInAftercare: 83,
    phoneCoachings: 6,
    phoneCoachingMinutes: 145,
    dayEvaluations: 70,
    lastDataAt: '2026-11-21T18:30:00.000Z',
    ...overrides,
  };
}

/** Consecutive days from `from` with the given values, as the daily statistics answer. */
export function buildDays<T extends object>(from: string, values: T[]): (T & { date: string })[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  return values.map((value, i) => ({ date: new Date(start + i * 86_400_000).toISOString().slice(0, 10), ...value }));
}

import type { Patient } from '../../contract/schemas/patients.ts';
import type { Comment } from '../../contract/schemas/comments.ts';

export function buildPatient(overrides: Partial<Patient> = {}): Patient {
  return {
    id: 'p-1',
    patientCode: 'NK-4821',
    firstName: 'Jonas',
    lastName: 'Keller',
    birthDate: '1968-04-09',
    gender: 'male',
    email: null,
    phone: null,
    clinic: 'Reha-Zentrum Bad Kissingen',
    aftercareStart: '2026-09-01',
    aftercareEnd: '2027-02-28',
    primaryCoachId: 'coach-1',
    diagnosisIds: [],
    costRateId: null,
    appointments: [],
    lastDataAt: null,
    followUpAt: null,
    createdAt: '2026-08-20T10:00:00.000Z',
    updatedAt: '2026-08-20T10:00:00.000Z',
    ...overrides,
  };
}

export function buildComment(overrides: Partial<Comment> = {}): Comment {
  return {
    id: 'c-1',
    patientId: 'p-1',
    authorId: 'coach-1',
    authorName: 'Anna Berg',
    text: 'Telefonat geführt, stabil.',
    createdAt: '2026-11-02T09:15:00.000Z',
    updatedAt: '2026-11-02T09:15:00.000Z',
    deletedAt: null,
    deletedBy: null,
    deletedByName: null,
    ...overrides,
  };
}

/** A list call that serves `rows` by limit/skip with X-Total-Count, as the upstream does. */
export function pagedList<T>(rows: T[]) {
  return (filter?: { limit?: number; skip?: number }) => {
    const skip = filter?.skip ?? 0;
    const limit = filter?.limit ?? rows.length;
    return ok(rows.slice(skip, skip + limit), rows.length);
  };
}

/** The lower id bound (`{ id: { gte } }`) of a list filter's where, alone or inside `and`. */
function idFrom(where: unknown): string | undefined {
  if (!where || typeof where !== 'object') return undefined;
  const own = (where as { id?: { gte?: unknown } }).id?.gte;
  if (typeof own === 'string') return own;
  const and = (where as { and?: unknown[] }).and;
  return Array.isArray(and) ? and.map(idFrom).find((id) => id !== undefined) : undefined;
}

/**
 * A list call as the upstream answers the id order (`order: ['id ASC']`): the rows from the filter's id bound on,
 * by limit/skip, with X-Total-Count of those. Other conditions are not applied.
 */
export function keyedList<T extends { id: string }>(rows: T[]) {
  const sorted = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return (filter?: { where?: unknown; limit?: number; skip?: number }) => {
    const from = idFrom(filter?.where);
    const rest = from === undefined ? sorted : sorted.filter((row) => row.id >= from);
    const skip = filter?.skip ?? 0;
    return ok(rest.slice(skip, skip + (filter?.limit ?? rest.length)), rest.length);
  };
}

import type { Device } from '../../contract/schemas/devices.ts';
import type { ReplicationEndpoint } from '../../contract/schemas/replication-endpoints.ts';

export function buildDevice(overrides: Partial<Device> = {}): Device {
  return {
    id: 'd-1',
    name: 'Fitbit Inspire 3',
    type: 'activity-tracker',
    serialNumber: 'FB-1001',
    createdAt: '2026-01-10T08:00:00.000Z',
    updatedAt: '2026-01-10T08:00:00.000Z',
    ...overrides,
  };
}

export function buildEndpoint(overrides: Partial<ReplicationEndpoint> = {}): ReplicationEndpoint {
  return {
    id: 'r-1',
    name: 'Hauptserver',
    protocol: 'https',
    host: null,
    port: null,
    path: '/replicate',
    createdAt: '2026-01-10T08:00:00.000Z',
    updatedAt: '2026-01-10T08:00:00.000Z',
    ...overrides,
  };
}

import type { PatientToken } from '../../contract/schemas/patient-tokens.ts';

/** An unused access code made for no patient yet, valid 90 days. */
export function buildPatientToken(overrides: Partial<PatientToken> = {}): PatientToken {
  return {
    id: 't1',
    code: 'K7QM-3RTX-9HPA-W',
    coachId: 'me',
    patientId: null,
    expiresAt: '2027-02-20T12:00:00.000Z',
    usedAt: null,
    createdAt: '2026-11-22T12:00:00.000Z',
    label: null,
    ...overrides,
  };
}
