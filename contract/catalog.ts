/**
 * Every /v2 call of docs/product.md#calls with who may make it and the shapes it takes and answers.
 * Shapes are named after their valibot schema in contract/schemas/ without the `Schema` suffix
 * (`Patient` = PatientSchema); `X[]` is a JSON array of X. scripts/api-docs.ts renders docs/api.md
 * from this list and the schemas, and test/server/upstream/api-docs.test.ts checks that every call
 * exists in the built-in upstream.
 */
import { type ApiFamily, stats, sync } from './catalog-kinds.ts';
import { PEOPLE_FAMILIES } from './catalog-people.ts';

export { type ApiCall, type ApiFamily, type Permission, PERMISSIONS } from './catalog-kinds.ts';

export const API_FAMILIES: ApiFamily[] = [
  ...PEOPLE_FAMILIES,
  {
    name: 'News',
    intro: 'Read state is per coach and item.',
    calls: [
      { method: 'GET', path: '/news', permission: 'signed-in', summary: 'Published news, newest first, `read` for the calling coach.', answer: 'NewsItem[]' },
      {
        method: 'POST',
        path: '/news/{id}/read/{coachId}',
        permission: 'self-or-admin',
        summary: 'Mark read for the coach (idempotent); 404 for unknown or unpublished news.',
      },
      { method: 'POST', path: '/news/{id}/unread/{coachId}', permission: 'self-or-admin', summary: 'Mark unread for the coach (idempotent).' },
    ],
  },
  {
    name: 'Statistics',
    intro:
      "Computed from stored data: aftercare intervals and held phone-coaching events (sync collection `event`, type phone-coaching, done). Days are German calendar days (Europe/Berlin). 400 for unknown query values, from after to, or a period over 731 days. Only aggregates and pseudonyms leave for patients the caller may not open: detail rows carry id, code and name only for administrators and the patient's own coaches.",
    calls: [
      stats('patient-statistics', 'PatientStatistics', 'Patients by aftercare status on day `to`, flows within the period.'),
      stats(
        'patient-detail-statistics',
        'PatientDetailStatisticsRow[]',
        'One row per patient in aftercare during the period; paged, X-Total-Count has all rows.',
        'DetailStatisticsQuery',
      ),
      stats('daily-patients-in-aftercare', 'DailyPatients', 'Patients in aftercare on each day of the period.'),
      stats('phone-coachings', 'PhoneCoachings', 'Held phone coachings and their minutes on each day of the period.'),
    ],
  },
  {
    name: 'System',
    intro: 'Instance settings and documents for coaches.',
    calls: [
      { method: 'GET', path: '/system/settings', permission: 'signed-in', summary: 'Instance settings.', answer: 'SystemSettings' },
      {
        method: 'GET',
        path: '/system/training-materials',
        permission: 'signed-in',
        summary: 'Documents for coaches; download each from /app-settings/asset/{assetId}.',
        answer: 'TrainingMaterial[]',
      },
    ],
  },
  {
    name: 'Patient extras',
    intro: 'Everything about one patient. 404 for an unknown patient, 403 for a coach who is not linked. Linking calls are idempotent.',
    calls: [
      {
        method: 'GET',
        path: '/patients/{id}/primary-coach',
        permission: 'linked-coach-or-admin',
        summary: 'Contact card of the responsible coach, null when unassigned.',
        answer: 'PrimaryCoach',
      },
      {
        method: 'GET',
        path: '/patients/{id}/token/get-or-create-unused',
        permission: 'linked-coach-or-admin',
        summary: 'The newest unused, unexpired access code (200), or a new one (201).',
        answer: 'PatientToken',
      },
      { method: 'GET', path: '/patients/{id}/puks', permission: 'linked-coach-or-admin', summary: 'Recovery keys, newest first.', answer: 'Puk[]' },
      {
        method: 'POST',
        path: '/patients/{id}/puks',
        permission: 'linked-coach-or-admin',
        summary: 'Create a recovery key.',
        body: 'PukCreate',
        answer: 'Puk',
        status: 201,
      },
      {
        method: 'GET',
        path: '/patients/{id}/coaches',
        permission: 'linked-coach-or-admin',
        summary: 'Coaches linked to the patient (the care team besides the primary coach).',
        answer: 'Coach[]',
      },
      { method: 'POST', path: '/patients/{id}/coaches/{coachId}', permission: 'primary-coach-or-admin', summary: 'Link a coach; 404 for an unknown coach.' },
      {
        method: 'DELETE',
        path: '/patients/{id}/coaches/{coachId}',
        permission: 'primary-coach-or-admin',
        summary: 'Unlink a coach; a linked coach may also remove themselves.',
      },
      { method: 'GET', path: '/patients/{id}/devices', permission: 'linked-coach-or-admin', summary: 'Devices lent to the patient.', answer: 'Device[]' },
      { method: 'POST', path: '/patients/{id}/devices/{deviceId}', permission: 'linked-coach-or-admin', summary: 'Link a device; 404 for an unknown device.' },
      { method: 'DELETE', path: '/patients/{id}/devices/{deviceId}', permission: 'linked-coach-or-admin', summary: 'Unlink a device.' },
      {
        method: 'PUT',
        path: '/patients/{id}/appointments',
        permission: 'linked-coach-or-admin',
        summary:
          "Replace the appointment list (ids unique); answers it sorted by start. Versioned with the patient: If-Match with the patient's version (ETag or updatedAt); the answer's ETag is the patient's new version; 412 carries the current list.",
        body: 'AppointmentsUpdate',
        answer: 'Appointment[]',
      },
      {
        method: 'GET',
        path: '/patients/{id}/evaluation-form',
        permission: 'linked-coach-or-admin',
        summary: 'The closing assessment; empty fields before the first save. ETag once saved.',
        answer: 'EvaluationForm',
      },
      {
        method: 'PUT',
        path: '/patients/{id}/evaluation-form',
        permission: 'linked-coach-or-admin',
        summary: 'Save the closing assessment; If-Match with its version (see Versions).',
        body: 'EvaluationFormUpdate',
        answer: 'EvaluationForm',
      },
    ],
  },
  {
    name: 'Synchronised collections',
    intro:
      "`{collection}` is one of day-evaluation, day-stats, event, event-template, form, internal, life-section, settings, survey, survey-result, timeframe, timeframe-evaluation (404 otherwise). `data` has the shape of the collection (see SyncCollectionData below). Writes to the collections the app fills (day-evaluation, day-stats, form, internal, life-section, settings, survey-result, timeframe-evaluation) move the patient's lastDataAt and sync state.",
    calls: [
      {
        method: 'GET',
        path: sync,
        permission: 'linked-coach-or-admin',
        summary: 'Records; `where`/`order` on id, date, updatedAt; default order date, id; at most 1000 per page; X-Total-Count.',
        query: 'filter: ListFilter',
        answer: 'SyncRecord[]',
      },
      {
        method: 'PUT',
        path: sync,
        permission: 'linked-coach-or-admin',
        summary: 'Create or replace the record with body.id; 422 naming the field when data does not fit the collection.',
        body: 'SyncUpsert',
        answer: 'SyncRecord',
      },
      { method: 'GET', path: `${sync}/{id}`, permission: 'linked-coach-or-admin', summary: 'One record.', answer: 'SyncRecord' },
      { method: 'DELETE', path: `${sync}/{id}`, permission: 'linked-coach-or-admin', summary: 'Delete a record; 404 when it does not exist.' },
    ],
  },
  {
    name: 'Audit log',
    intro:
      'Not in docs/product.md: the built-in upstream records every change to patients (master data, appointments, evaluation form), comments, care-team and device links, devices, access codes, recovery keys and coaches, in the same transaction as the change. Password hashes, access codes and recovery keys appear only as "[redacted]".',
    calls: [
      {
        method: 'GET',
        path: '/audit-log',
        optional: true,
        permission: 'patient-history',
        summary:
          'Changes, newest first (default 100 per page); `where`/`order` on id, at, actorId, action, entity, entityId, patientId: `{ "where": { "patientId": "…" } }` is one patient\'s history, `{ "where": { "entity": "comment", "entityId": "…" } }` every version of one note. X-Total-Count.',
        query: 'filter: ListFilter',
        answer: 'AuditEntry[]',
      },
    ],
  },
];
